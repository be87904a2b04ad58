import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, renderPdf } from '@quire/testkit';
import { toMarkdown } from './markdown.ts';
import { isKashida, isSpaceBeforeMark, lamAlefInOrder } from './pdf-ligatures.ts';
import { createPdfExtractor } from './pdf.ts';
import type { ExtractResult } from './types.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const CORPUS = path.join(FIXTURES, 'corpus/pdf');

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pdf-structure-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

let made = 0;
async function extract(pdf: Buffer): Promise<ExtractResult> {
  const input = path.join(dir, `${++made}.pdf`);
  await fs.writeFile(input, pdf);
  const outputDir = path.join(dir, `${made}-out`);
  await fs.mkdir(outputDir);
  return createPdfExtractor('pdfium')(input, { extractImages: false, outputDir });
}

const BODY =
  'Cells keep their energy in small molecules and spend it where work is done, one reaction after another, ' +
  'so that the whole cell can grow and divide when the time comes.';

/** Body text in Helvetica 11 pt, written line by line at the given width. */
function body(doc: PDFKit.PDFDocument, text: string, x?: number, width = 450) {
  doc.font('Helvetica').fontSize(11);
  if (x === undefined) doc.text(text, { width });
  else doc.text(text, x, doc.y, { width });
  doc.moveDown(0.8);
}

const kinds = (result: ExtractResult) =>
  result.segments.map((s) => [s.kind ?? 'paragraph', s.level, s.text.split('\n')[0]] as const);

describe('the structure of a PDF, read from its page', () => {
  it('finds headings and their levels from size, weight and numbering, and paragraphs under them', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(24).text('Cell Biology');
      doc.moveDown(0.5);
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(16).text('1 Energy');
      doc.moveDown(0.3);
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(13).text('1.1 Mitochondria');
      doc.moveDown(0.3);
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(16).text('2 Growth');
      doc.moveDown(0.3);
      body(doc, BODY);
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['heading', 1, 'Cell Biology'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 2, '1 Energy'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 3, '1.1 Mitochondria'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 2, '2 Growth'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
    for (const segment of result.segments) {
      expect(segment.page).toBe(1);
      const [x0, y0, x1, y1] = segment.box!;
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(x1).toBeGreaterThan(x0);
      expect(y1).toBeGreaterThan(y0);
    }
    // Top to bottom: each element's box starts below the one before.
    const tops = result.segments.map((s) => s.box![1]);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    expect(toMarkdown(result.segments)).toMatch(
      /^<!-- page 1 -->\n\n# Cell Biology\n\nCells keep[^]*\n## 1 Energy\n[^]*\n### 1\.1 Mitochondria\n/,
    );
    // The plain text is the elements' texts, in order.
    expect(result.text).toBe(result.segments.map((s) => s.text).join('\n'));
  });

  it("gives each heading size a level of its own, a size used once and a word processor's 14 and 13 pt too", async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Helvetica').fontSize(20).text('Swimming in the lake');
      doc.moveDown(0.5);
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(14).text('Getting started');
      doc.moveDown(0.3);
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(13).text('Before the water');
      doc.moveDown(0.3);
      body(doc, BODY);
    });
    const result = await extract(pdf);
    expect(result.segments.filter((s) => s.kind === 'heading').map((s) => [s.level, s.text])).toEqual([
      [1, 'Swimming in the lake'],
      [2, 'Getting started'],
      [3, 'Before the water'],
    ]);
  });

  it('reads a numbered list set in another typeface a size up as a list, not as headings', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      doc.font('Times-Roman').fontSize(12);
      doc.text('1. Put a drop of water on the slide', 90, doc.y);
      doc.text('2. Lay the sample in the drop', 90, doc.y);
      doc.text('3. Focus the microscope', 90, doc.y);
      doc.moveDown(1);
      body(doc, BODY, 72);
    });
    const result = await extract(pdf);
    expect(result.segments.filter((s) => s.kind === 'heading')).toEqual([]);
    expect(result.segments.filter((s) => s.kind === 'list-item').map((s) => s.text)).toEqual([
      'Put a drop of water on the slide',
      'Lay the sample in the drop',
      'Focus the microscope',
    ]);
  });

  it('reads a numbered list and a bulleted list with a nested one as list items', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'To see a cell, follow these steps:');
      doc.font('Helvetica').fontSize(11);
      doc.text('1.  Put a drop of water on the slide.', 72, doc.y);
      doc.text('2.  Lay the sample in the drop and cover it with a thin glass that keeps it flat and wet.', 72, doc.y, {
        width: 300,
        indent: 0,
      });
      doc.text('3.  Focus the microscope.', 72, doc.y);
      doc.moveDown(1);
      body(doc, 'What you will see:', 72);
      doc.text('•  The wall', 72, doc.y);
      doc.text('•  The nucleus', 72, doc.y);
      doc.text('–  The nucleolus inside it', 90, doc.y);
      doc.text('•  The cytoplasm', 72, doc.y);
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text.replace(/\s+/g, ' '), s.ordered, s.level])).toEqual([
      ['Put a drop of water on the slide.', true, 1],
      ['Lay the sample in the drop and cover it with a thin glass that keeps it flat and wet.', true, 1],
      ['Focus the microscope.', true, 1],
      ['The wall', false, 1],
      ['The nucleus', false, 1],
      ['The nucleolus inside it', false, 2],
      ['The cytoplasm', false, 1],
    ]);
    expect(toMarkdown(result.segments)).toContain('- The nucleus\n  - The nucleolus inside it\n- The cytoplasm');
  });

  it("keeps a numbered list's own numbers where a paragraph interrupts it, and gives letters none", async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'To stain a sample:');
      doc.font('Helvetica').fontSize(11);
      doc.text('1.  Put a drop of stain on the slide.', 72, doc.y);
      doc.moveDown(0.8);
      body(doc, 'Note: the stain marks skin and clothes, so wear gloves before you open the bottle.', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('2.  Lay the sample in the drop.', 72, doc.y);
      doc.text('3.  Wait a minute.', 72, doc.y);
      doc.moveDown(0.8);
      body(doc, 'Then look for:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('(4)  The nucleus, stained dark.', 72, doc.y);
      doc.moveDown(0.8);
      body(doc, 'Answer one of these:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('a)  Why does the nucleus take the stain?', 72, doc.y);
      doc.text('b)  What does the cytoplasm look like?', 72, doc.y);
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text, s.ordered, s.number])).toEqual([
      ['Put a drop of stain on the slide.', true, 1],
      ['Lay the sample in the drop.', true, 2],
      ['Wait a minute.', true, 3],
      ['The nucleus, stained dark.', true, 4],
      ['Why does the nucleus take the stain?', true, undefined],
      ['What does the cytoplasm look like?', true, undefined],
    ]);
    const markdown = toMarkdown(result.segments);
    expect(markdown).toContain('so wear gloves before you open the bottle.\n\n2. Lay the sample in the drop.\n3. Wait');
    expect(markdown).toContain('Then look for:\n\n4. The nucleus, stained dark.');
    expect(markdown).toContain('Answer one of these:\n\n1. Why does the nucleus take the stain?\n2. What');
  });

  it('reads a bullet set tight against its text as an item, and a dash against a word as no marker', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'What you will see:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('•The wall', 72, doc.y);
      doc.text('•The nucleus', 72, doc.y);
      doc.moveDown(1);
      body(doc, '-40 degrees is as cold in Celsius as in Fahrenheit.', 72);
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, 'What you will see:'],
      ['list-item', 1, 'The wall'],
      ['list-item', 1, 'The nucleus'],
      ['paragraph', undefined, '-40 degrees is as cold in Celsius as in Fahrenheit.'],
    ]);
  });

  it('nests an item set in past the end of a short item above it under that item, not in a next column', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'Regions:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('•  Italy', 72, doc.y);
      doc.text('•  Piedmont', 130, doc.y);
      doc.text('•  Liguria', 130, doc.y);
      doc.text('•  Africa', 72, doc.y);
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text, s.level])).toEqual([
      ['Italy', 1],
      ['Piedmont', 2],
      ['Liguria', 2],
      ['Africa', 1],
    ]);
  });

  it('reads lines in a fixed-pitch font as a code block with their indents, one such line alone as text', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'To add two numbers:', 72);
      doc.font('Courier').fontSize(10);
      doc.text('def add(a, b):', 72, doc.y);
      doc.text('return a + b', 96, doc.y);
      doc.text('print(add(3, 5))', 72, doc.y);
      doc.moveDown(1);
      body(doc, BODY, 72);
      doc.font('Courier').fontSize(11).text('Ada Lovelace', 72, doc.y);
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, 'To add two numbers:'],
      ['code', undefined, 'def add(a, b):'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, 'Ada Lovelace'],
    ]);
    expect(toMarkdown(result.segments)).toContain('```\ndef add(a, b):\n    return a + b\nprint(add(3, 5))\n```');
  });

  it('reads a page typed in a fixed-pitch font throughout as text, not code', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Courier').fontSize(11);
      doc.text(BODY, 72, 72, { width: 450 });
      doc.moveDown(1);
      doc.text(BODY, { width: 450 });
    });
    const result = await extract(pdf);
    expect(result.segments.map((s) => s.kind ?? 'paragraph')).toEqual(['paragraph', 'paragraph']);
  });

  it('ends an indented item where the next line starts back at the margin, with no space between', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'Three things to check:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('•  The lamp is on.', 90, doc.y);
      doc.text('•  The slide is clean and dry.', 90, doc.y);
      doc.text('Then look through the eyepiece and turn the knob until the cell comes into focus.', 72, doc.y, {
        width: 450,
      });
    });
    const result = await extract(pdf);
    expect(kinds(result).slice(-3)).toEqual([
      ['list-item', 1, 'The lamp is on.'],
      ['list-item', 1, 'The slide is clean and dry.'],
      ['paragraph', undefined, 'Then look through the eyepiece and turn the knob until the cell comes into focus.'],
    ]);
  });

  it("reads Word's letter-o bullet under an item as a nested item, and keeps a list's several-level numbers in its items", async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, 'What you will see:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('•  The wall', 72, doc.y);
      doc.text('o  The outer layer', 90, doc.y);
      doc.text('o  The inner layer', 90, doc.y);
      doc.text('•  The nucleus', 72, doc.y);
      doc.moveDown(1);
      body(doc, 'The parts of the report:', 72);
      doc.font('Helvetica').fontSize(11);
      doc.text('2.3.1. Hardware Constraints', 90, doc.y);
      doc.text('2.3.2. Software Constraints', 90, doc.y);
      doc.text('2.3.2.1. First sub-item at this level', 110, doc.y);
      doc.moveDown(1);
      // A sentence that starts with a decimal number, and a line of a table of contents, are no items.
      body(doc, 'The cell wall is strong.', 72);
      body(doc, '3.5 million cells fit on the slide, so many that one cannot count them one by one.', 72);
      doc.font('Helvetica').fontSize(11).text('1.2 Cell walls . . . . . . . . . . . . . . . . 14', 72, doc.y);
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text.replace(/\s+/g, ' '), s.ordered, s.level])).toEqual([
      ['The wall', false, 1],
      ['The outer layer', false, 2],
      ['The inner layer', false, 2],
      ['The nucleus', false, 1],
      ['2.3.1. Hardware Constraints', false, 1],
      ['2.3.2. Software Constraints', false, 1],
      ['2.3.2.1. First sub-item at this level', false, 2],
    ]);
    expect(toMarkdown(result.segments)).toContain('- 2.3.1. Hardware Constraints\n');
    expect(result.text).toContain('3.5 million cells');
  });

  it('keeps a question and its italic note in one item, and starts the nesting again in the next column', async () => {
    // Questions numbered in bold with their text set in past the number (a hanging indent), a note in italics.
    const column = (doc: PDFKit.PDFDocument, x: number, first: number) => {
      doc.y = 72;
      for (let n = first; n < first + 2; n++) {
        const top = doc.y;
        doc.font('Helvetica-Bold').fontSize(9).text(`${n}.`, x, top);
        doc.text('Which services does the provider give to people who ask for them?', x + 18, top, { width: 200 });
        doc
          .font('Helvetica-Oblique')
          .fontSize(9)
          .text('(Please select all that apply)', x + 18, doc.y);
        doc.moveDown(0.6);
        for (const answer of ['Advice', 'Representation in court', 'Other'])
          doc
            .font('Helvetica')
            .fontSize(9)
            .text(`•  ${answer}`, x + 20, doc.y);
        doc.moveDown(1);
      }
    };
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage({ size: 'A4', layout: 'landscape' });
      column(doc, 50, 21);
      column(doc, 450, 23);
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text.replace(/\s+/g, ' '), s.ordered, s.level])).toEqual(
      [21, 22, 23, 24].flatMap(() => [
        ['Which services does the provider give to people who ask for them? (Please select all that apply)', true, 1],
        ['Advice', false, 2],
        ['Representation in court', false, 2],
        ['Other', false, 2],
      ]),
    );
  });

  it('reads a bold numbered line as a heading and a small numbered note as a footnote, not as list items', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(11).text('(1) Scope of the rules');
      doc.moveDown(0.3);
      body(doc, BODY);
      doc.font('Helvetica').fontSize(8).text('1. Source: the 2020 survey of cell counts.');
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 1, '(1) Scope of the rules'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['footnote', undefined, '1. Source: the 2020 survey of cell counts.'],
    ]);
  });

  it('reads a bold line as bold whatever character stands in its middle (a space has no weight)', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      // "Cell walls", each word drawn on its own: the space between them, the line's middle character, is
      // PDFium's, with no font.
      const y = doc.y;
      doc.font('Helvetica-Bold').fontSize(11).text('Cell', 72, y, { lineBreak: false });
      doc.text('walls', 72 + doc.widthOfString('Cell '), y);
      doc.moveDown(0.3);
      body(doc, BODY);
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 1, 'Cell walls'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
  });

  it('reads a line a little bigger in another typeface as a heading, apart from the text under it', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      // 7 % bigger than the body's Helvetica, in Times: a heading, though neither bold nor 15 % bigger.
      doc.font('Times-Roman').fontSize(11.8).text('(1) Scope of the rules');
      doc.moveDown(0.2);
      body(doc, BODY);
      doc.font('Times-Roman').fontSize(11.8).text('(2) What the rules leave out');
      doc.moveDown(0.2);
      body(doc, BODY);
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 1, '(1) Scope of the rules'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 1, '(2) What the rules leave out'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
  });

  it('reads a line alone in italics over upright text as a heading under the bold ones, and italic notes as text', async () => {
    const times = (doc: PDFKit.PDFDocument, font: string, text: string, after = 0.8) => {
      doc.font(font).fontSize(11).text(text, { width: 450 });
      doc.moveDown(after);
    };
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      times(doc, 'Times-Bold', 'Landing Gear', 0.3);
      times(doc, 'Times-Roman', BODY);
      // Set close over its text, as a handbook sets its lowest headings.
      times(doc, 'Times-Italic', 'Wheel Brakes', 0);
      times(doc, 'Times-Roman', BODY);
      // A note in italics ends as a sentence does; a passage in italics runs on over several lines.
      times(doc, 'Times-Italic', 'Check the brakes before every flight.', 0.3);
      times(doc, 'Times-Roman', BODY);
      times(doc, 'Times-Italic', BODY, 0.3);
      times(doc, 'Times-Roman', BODY);
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['heading', 1, 'Landing Gear'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 2, 'Wheel Brakes'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, 'Check the brakes before every flight.'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
  });

  it("reads an italic line atop a page that repeats a heading as the page's running head, not a heading", async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Times-Roman').fontSize(11).text(BODY, { width: 450 });
      doc.moveDown(0.8);
      doc.font('Times-Bold').fontSize(11).text('Wheel Brakes', { width: 450 });
      doc.moveDown(0.3);
      doc.font('Times-Roman').fontSize(11).text(BODY, { width: 450 });
      // A short document: the running head is on one page only, so it cannot show itself running.
      doc.addPage();
      doc.font('Times-Italic').fontSize(11).text('Wheel Brakes', 72, 40, { width: 450 });
      doc.font('Times-Roman').fontSize(11).text(BODY, 72, 90, { width: 450 });
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 1, 'Wheel Brakes'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['page-header', undefined, 'Wheel Brakes'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
    expect(toMarkdown(result.segments).match(/Wheel Brakes/g)).toHaveLength(1);
  });

  it('reads no heading in a bold table header smaller than the body, nor in a bold line alone at the foot of the page', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage({ size: 'A4', margins: { top: 72, bottom: 20, left: 72, right: 72 } });
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(10).text('Column name    Data type    Description');
      doc.font('Helvetica').fontSize(9).text('ALLOWED    CHAR(1)    The user may use the function');
      doc.moveDown(1);
      body(doc, BODY);
      doc.font('Helvetica-Bold').fontSize(11).text('208 Global Study on Cells - Annex 209', 72, 790);
    });
    const result = await extract(pdf);
    expect(result.segments.filter((s) => s.kind === 'heading')).toEqual([]);
    expect(toMarkdown(result.segments)).not.toMatch(/^#/m);
  });

  it("reads no heading in a bold table row at the body's size whose cells stand apart, but one whose number stands apart", async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      const y = doc.y;
      doc.font('Helvetica-Bold').fontSize(11);
      doc.text('Sample', 72, y, { lineBreak: false });
      doc.text('Stain', 220, y, { lineBreak: false });
      doc.text('Result', 370, y, { lineBreak: false });
      doc.font('Helvetica').fontSize(11);
      doc.text('Onion skin', 72, y + 16, { lineBreak: false });
      doc.text('Iodine', 220, y + 16, { lineBreak: false });
      doc.text('Walls seen', 370, y + 16, { lineBreak: false });
      doc.text('', 72, y + 50);
      body(doc, BODY, 72);
      const h = doc.y;
      doc.font('Helvetica-Bold').fontSize(11);
      doc.text('2.1', 72, h, { lineBreak: false });
      doc.text('Methods', 120, h, { lineBreak: false });
      doc.text('', 72, h + 20);
      body(doc, BODY, 72);
    });
    const result = await extract(pdf);
    expect(result.segments.filter((s) => s.kind === 'heading').map((s) => s.text)).toEqual(['2.1 Methods']);
  });

  it('reads no heading in a bold row of three words or more set a little apart (a table header set close)', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      const y = doc.y;
      doc.font('Helvetica-Bold').fontSize(11);
      let x = 72;
      for (const word of ['Year', 'Month', 'Revenue', 'Cost']) {
        doc.text(word, x, y, { lineBreak: false });
        x += doc.widthOfString(word) + 10;
      }
      doc.text('', 72, y + 20);
      body(doc, BODY, 72);
    });
    const result = await extract(pdf);
    expect(kinds(result).map(([kind]) => kind)).toEqual(['paragraph', 'paragraph', 'paragraph']);
  });

  it('reads a bold line a little smaller than the body as the heading of the smaller text under it', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      body(doc, BODY);
      // An aside: its heading bold at 10.4 pt over 8 pt text, both under the 11 pt body.
      doc.font('Helvetica-Bold').fontSize(10.4).text('Who we are');
      doc.font('Helvetica').fontSize(8).text(BODY, { width: 300 });
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['heading', 1, 'Who we are'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
  });

  it('reads a two-column page column by column, whatever order the file draws it in', async () => {
    const left = Array.from({ length: 4 }, (_, i) => `Left paragraph ${i + 1}. ${BODY}`);
    const right = Array.from({ length: 4 }, (_, i) => `Right paragraph ${i + 1}. ${BODY}`);
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage({ size: 'A4' });
      // The right column first in the content stream: only the page's geometry says it comes second.
      doc.y = 72;
      for (const text of right) body(doc, text, 310, 230);
      doc.y = 72;
      for (const text of left) body(doc, text, 50, 230);
    });
    const result = await extract(pdf);
    const firstLines = result.segments.map((s) => s.text.split('\n')[0]!.split('.')[0]);
    expect(firstLines).toEqual([
      'Left paragraph 1',
      'Left paragraph 2',
      'Left paragraph 3',
      'Left paragraph 4',
      'Right paragraph 1',
      'Right paragraph 2',
      'Right paragraph 3',
      'Right paragraph 4',
    ]);
  });

  it('keeps running headers and footers as elements of their own, left out of the Markdown', async () => {
    const pdf = await renderPdf({}, (doc) => {
      for (let page = 1; page <= 3; page++) {
        doc.addPage({ size: 'A4', margins: { top: 20, bottom: 20, left: 72, right: 72 } });
        doc.font('Helvetica').fontSize(9).text('Cell Biology - Course Notes', 72, 24);
        doc.y = 120;
        body(doc, `Chapter text of page ${page}. ${BODY}`, 72);
        doc.font('Helvetica').fontSize(9).text(`Page ${page} of 3`, 72, 800);
      }
    });
    const result = await extract(pdf);
    expect(result.segments.map((s) => [s.page, s.kind ?? 'paragraph'])).toEqual([
      [1, 'page-header'],
      [1, 'paragraph'],
      [1, 'page-footer'],
      [2, 'page-header'],
      [2, 'paragraph'],
      [2, 'page-footer'],
      [3, 'page-header'],
      [3, 'paragraph'],
      [3, 'page-footer'],
    ]);
    const markdown = toMarkdown(result.segments);
    expect(markdown).not.toContain('Course Notes');
    expect(markdown).not.toContain('of 3');
    expect(result.text).toContain('Cell Biology - Course Notes');
  });

  it('keeps a page of running text one paragraph, whose first line starts every page alike and whose lines may start with a number', async () => {
    const page = (n: number) =>
      `Page ${n} of the long handbook. ` +
      Array.from({ length: 24 }, (_, i) => `Sentence ${i + 1} of page ${n} explains topic ${(n * 31 + i) % 997}.`).join(
        ' ',
      );
    const pages = Array.from({ length: 12 }, (_, i) => page(i + 1));
    const result = await extract(await makePdf(pages));
    expect(result.segments.map((s) => [s.page, s.kind ?? 'paragraph'])).toEqual(
      pages.map((_, i) => [i + 1, 'paragraph']),
    );
    expect(result.segments.map((s) => s.text.replace(/\s+/g, ' '))).toEqual(pages);
  });

  it('reads a double-spaced essay in its paragraphs, by their indents, and a quotation set in apart from them', async () => {
    // A student's essay: Times 12 pt, a line apart, ragged right, each paragraph's first line set in, no space
    // between paragraphs; a long quotation set in as a whole, the text going on at the margin after it.
    const essay = (doc: PDFKit.PDFDocument, text: string, options: PDFKit.Mixins.TextOptions) =>
      doc
        .font('Times-Roman')
        .fontSize(12)
        .text(text, { lineGap: 14, align: 'left', ...options });
    const quote =
      'Sentences in a quotation are set in from both margins, and they run on over several lines as the rest ' +
      'of the essay does, a line apart.';
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      essay(doc, 'Energy in Cells', { width: 450, align: 'center' });
      essay(doc, BODY + ' ' + BODY, { width: 450, indent: 36 });
      essay(doc, BODY + ' ' + BODY, { width: 450, indent: 36 });
      doc.x = 108;
      essay(doc, quote, { width: 378 });
      doc.x = 72;
      essay(doc, BODY, { width: 450 });
    });
    const result = await extract(pdf);
    expect(kinds(result)).toEqual([
      ['paragraph', undefined, 'Energy in Cells'],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
      ['paragraph', undefined, expect.stringMatching(/^Sentences in a quotation/)],
      ['paragraph', undefined, expect.stringMatching(/^Cells keep/)],
    ]);
    const words = (text: string) => text.split(/\s+/).join(' ');
    expect(result.segments.map((s) => words(s.text))).toEqual([
      'Energy in Cells',
      words(BODY + ' ' + BODY),
      words(BODY + ' ' + BODY),
      words(quote),
      words(BODY),
    ]);
  });

  it("reads a bibliography's entries set with a hanging indent one by one, each entry's lines together", async () => {
    const entries = [
      [
        'Adams, Scott. How to Fail at Almost Everything and Still Win Big: Kind of the Story',
        'of My Life. Portfolio, 2013.',
      ],
      [
        'Ferriss, Timothy. Tools of Titans: The Tactics, Routines, and Habits of Billionaires,',
        'Icons, and World-Class Performers. Houghton Mifflin Harcourt, 2016.',
      ],
      ['Que, Suzie. Breaks and Headings in the Long Paper. Anytown Press, 2019.'],
    ];
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Times-Roman').fontSize(12);
      let y = 72;
      for (const lines of entries)
        lines.forEach((line, i) => {
          doc.text(line, i === 0 ? 72 : 108, y, { lineBreak: false });
          y += 14;
        });
    });
    const result = await extract(pdf);
    expect(result.segments.map((s) => [s.kind ?? 'paragraph', s.text.replace(/\s+/g, ' ')])).toEqual(
      entries.map((lines) => ['paragraph', lines.join(' ')]),
    );
  });

  it('joins a word broken at a line end, and keeps the hyphen of a compound the document writes whole', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Helvetica').fontSize(11);
      doc.text('The tracing compiler records a selec-', 72, 100);
      doc.text('tive path through the loop, and its compila-', 72, 113);
      doc.text('tion is a well-', 72, 126);
      doc.text('known result: a well-known trick of the JIT.', 72, 139);
    });
    const result = await extract(pdf);
    expect(result.text).toContain('selective path');
    expect(result.text).toContain('compilation is');
    expect(result.text).toContain('a well-known result');
    expect(result.text).not.toContain('\ufffe');
  });
});

/** Each element's kind, level and first 40 characters. */
const kindsWithStarts = (result: ExtractResult) =>
  result.segments.map((s) => [s.kind ?? 'paragraph', s.level, s.text.slice(0, 40)] as const);

/** A block of text in Helvetica 11 pt inside a structure element of `type` under `parent`. */
function tagged(doc: PDFKit.PDFDocument, parent: PDFKit.PDFStructureElement, type: string, text: string) {
  parent.add(
    doc.struct(type, () => {
      doc.font('Helvetica').fontSize(11).text(text, { width: 450 });
    }),
  );
  doc.moveDown(0.6);
}

/** A list's item: LI holding its bulleted text (LBody), set in at `x`; returned to hold a nested list. */
function item(doc: PDFKit.PDFDocument, list: PDFKit.PDFStructureElement, text: string, x: number) {
  const li = doc.struct('LI');
  list.add(li);
  li.add(
    doc.struct('LBody', () => {
      doc.font('Helvetica').fontSize(11).text(`• ${text}`, x, doc.y);
    }),
  );
  return li;
}

/** A page number outside the structure tree, at the page's foot, as producers mark them (an artifact). */
function pageNumber(doc: PDFKit.PDFDocument, number: number) {
  doc.markContent('Artifact', { type: 'Pagination' });
  doc.font('Helvetica').fontSize(9).text(String(number), 300, 760, { lineBreak: false });
  doc.endMarkedContent();
  doc.x = 72;
  doc.y = 72;
}

describe('the structure of a tagged PDF, read from its structure tree', () => {
  it('takes headings and their levels, nested lists and a table with a merged cell from the tags', async () => {
    const pdf = await renderPdf({ tagged: true, lang: 'en' }, (doc) => {
      doc.addPage();
      const root = doc.struct('Document');
      doc.addStructure(root);
      // Headings set like the body text: only the tags tell them apart.
      tagged(doc, root, 'H1', 'Cell Biology');
      tagged(doc, root, 'P', BODY);
      tagged(doc, root, 'H2', 'Energy');
      tagged(doc, root, 'P', BODY);
      const list = doc.struct('L');
      root.add(list);
      const first = item(doc, list, 'Glycolysis', 90);
      const nested = doc.struct('L');
      first.add(nested);
      item(doc, nested, 'Priming', 110);
      item(doc, nested, 'Cleavage', 110);
      item(doc, list, 'Respiration', 90);
      doc.x = 72;
      doc.moveDown(0.6);
      tagged(doc, root, 'H2', 'Measurements');
      doc.table({
        structParent: root,
        data: [
          [
            { text: 'Organelle', type: 'TH' },
            { text: 'Share', type: 'TH' },
          ],
          [{ text: 'Both columns merged', colSpan: 2 }],
          ['Mitochondria', '22 %'],
        ],
      });
      root.end();
    });
    const result = await extract(pdf);
    expect(kindsWithStarts(result)).toEqual([
      ['heading', 1, 'Cell Biology'],
      ['paragraph', undefined, BODY.slice(0, 40)],
      ['heading', 2, 'Energy'],
      ['paragraph', undefined, BODY.slice(0, 40)],
      ['list-item', 1, 'Glycolysis'],
      ['list-item', 2, 'Priming'],
      ['list-item', 2, 'Cleavage'],
      ['list-item', 1, 'Respiration'],
      ['heading', 2, 'Measurements'],
      ['table', undefined, 'Organelle\tShare\nBoth columns merged\nMito'],
    ]);
    const table = result.segments.at(-1)!;
    expect(table.rows).toEqual([
      [
        { text: 'Organelle', header: true },
        { text: 'Share', header: true },
      ],
      [{ text: 'Both columns merged', colSpan: 2 }],
      [{ text: 'Mitochondria' }, { text: '22 %' }],
    ]);
    expect(toMarkdown(result.segments)).toContain(
      '| Organelle | Share |\n|---|---|\n| Both columns merged | Both columns merged |\n| Mitochondria | 22 % |',
    );
    // Each element keeps its page and box.
    expect(result.segments.every((s) => s.page === 1 && s.box && s.box[2] > s.box[0])).toBe(true);
  });

  it("keeps a tagged list's numbers from its items' labels where a paragraph interrupts it", async () => {
    const pdf = await renderPdf({ tagged: true, lang: 'en' }, (doc) => {
      doc.addPage();
      const root = doc.struct('Document');
      doc.addStructure(root);
      tagged(doc, root, 'H1', 'Staining');
      const numbered = (list: PDFKit.PDFStructureElement, label: string, text: string) => {
        const li = doc.struct('LI');
        list.add(li);
        li.add(doc.struct('LBody', () => doc.font('Helvetica').fontSize(11).text(`${label} ${text}`, 90, doc.y)));
        doc.x = 72;
        doc.moveDown(0.6);
      };
      const first = doc.struct('L');
      root.add(first);
      numbered(first, '1.', 'Put a drop of stain on the slide.');
      tagged(doc, root, 'P', 'Note: wear gloves.');
      const resumed = doc.struct('L');
      root.add(resumed);
      numbered(resumed, '2.', 'Lay the sample in the drop.');
      root.end();
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text, s.number])).toEqual([
      ['Put a drop of stain on the slide.', 1],
      ['Lay the sample in the drop.', 2],
    ]);
    expect(toMarkdown(result.segments)).toContain('Note: wear gloves.\n\n2. Lay the sample in the drop.');
  });

  it('keeps text outside the tree: page numbers at the foot are footers, left out of the Markdown', async () => {
    const pdf = await renderPdf({ tagged: true }, (doc) => {
      const root = doc.struct('Document');
      doc.addStructure(root);
      for (const page of [1, 2, 3]) {
        doc.addPage();
        tagged(doc, root, 'H1', `Chapter ${page}`);
        tagged(doc, root, 'P', BODY);
        pageNumber(doc, page);
      }
      root.end();
    });
    const result = await extract(pdf);
    expect(result.segments.filter((s) => s.kind === 'page-footer').map((s) => [s.page, s.text])).toEqual([
      [1, '1'],
      [2, '2'],
      [3, '3'],
    ]);
    expect(result.segments.filter((s) => s.kind === 'heading').map((s) => s.text)).toEqual([
      'Chapter 1',
      'Chapter 2',
      'Chapter 3',
    ]);
    expect(toMarkdown(result.segments)).not.toMatch(/^\d$/m);
  });

  it('reads a title tagged as a paragraph above the headings, which go a level down under it', async () => {
    const pdf = await renderPdf({ tagged: true }, (doc) => {
      doc.addPage();
      const root = doc.struct('Document');
      doc.addStructure(root);
      root.add(
        doc.struct('P', () => {
          doc.font('Helvetica').fontSize(26).text('Field Notes');
        }),
      );
      doc.moveDown(0.6);
      // Set like the body text: on the page alone, a paragraph.
      tagged(doc, root, 'H1', 'Before the trip');
      tagged(doc, root, 'P', BODY);
      root.end();
    });
    const result = await extract(pdf);
    expect(kindsWithStarts(result).slice(0, 2)).toEqual([
      ['heading', 1, 'Field Notes'],
      ['heading', 2, 'Before the trip'],
    ]);
  });

  it('reads a tree that tags every block as a paragraph in its blocks, with headings and items from the look', async () => {
    const pdf = await renderPdf({ tagged: true }, (doc) => {
      doc.addPage();
      const root = doc.struct('Document');
      doc.addStructure(root);
      tagged(doc, root, 'P', BODY);
      root.add(
        doc.struct('P', () => {
          doc.font('Helvetica-Bold').fontSize(16).text('Energy');
        }),
      );
      doc.moveDown(0.6);
      tagged(doc, root, 'P', BODY);
      tagged(doc, root, 'P', '• Glycolysis');
      tagged(doc, root, 'P', '• Respiration');
      root.end();
    });
    const result = await extract(pdf);
    expect(kindsWithStarts(result)).toEqual([
      ['paragraph', undefined, BODY.slice(0, 40)],
      ['heading', 1, 'Energy'],
      ['paragraph', undefined, BODY.slice(0, 40)],
      ['list-item', 1, 'Glycolysis'],
      ['list-item', 1, 'Respiration'],
    ]);
  });

  it("keeps the look's item numbers where the tree tags every block as a paragraph", async () => {
    const pdf = await renderPdf({ tagged: true }, (doc) => {
      doc.addPage();
      const root = doc.struct('Document');
      doc.addStructure(root);
      tagged(doc, root, 'P', BODY);
      tagged(doc, root, 'P', '1. Glycolysis');
      tagged(doc, root, 'P', BODY);
      tagged(doc, root, 'P', '2. Respiration');
      root.end();
    });
    const result = await extract(pdf);
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text, s.number])).toEqual([
      ['Glycolysis', 1],
      ['Respiration', 2],
    ]);
  });

  it('keeps a bold line a paragraph where the tree tags lists but no heading', async () => {
    const pdf = await renderPdf({ tagged: true }, (doc) => {
      doc.addPage();
      const root = doc.struct('Document');
      doc.addStructure(root);
      tagged(doc, root, 'P', BODY);
      root.add(
        doc.struct('P', () => {
          doc.font('Helvetica-Bold').fontSize(11).text('Bring these');
        }),
      );
      doc.moveDown(0.6);
      const list = doc.struct('L');
      root.add(list);
      item(doc, list, 'Gloves', 90);
      item(doc, list, 'Goggles', 90);
      root.end();
    });
    const result = await extract(pdf);
    expect(kindsWithStarts(result)).toEqual([
      ['paragraph', undefined, BODY.slice(0, 40)],
      ['paragraph', undefined, 'Bring these'],
      ['list-item', 1, 'Gloves'],
      ['list-item', 1, 'Goggles'],
    ]);
  });
});

describe('the text of a PDF, as PDFium gives its characters', () => {
  it("puts an Arabic lam-alef ligature's letters back in order where the two share one glyph's box", () => {
    // "المشكالت خالل الأولويات إلى" as PDFium writes "المشكلات خلال الأولويات إلى": each lam-alef glyph's alef
    // first. The article's "ال" and the "إل" of "إلى" are two glyphs each, and stay as written.
    const written = 'المشكالت خالل األلويات إلى';
    const glyphs = new Set(['المشك'.length, 'المشكالت خ'.length, 'المشكالت خالل ا'.length]);
    expect(lamAlefInOrder(written, (at) => glyphs.has(at))).toBe('المشكلات خلال الألويات إلى');
    // Without one glyph's box, nothing moves.
    expect(lamAlefInOrder(written, () => false)).toBe(written);
  });

  it('leaves out a kashida, the stroke that stretches a justified Arabic word, where a space would break the word', () => {
    // "باللغ?ة" as PDFium gives LibreOffice's print: the stroke between غ and ة is a glyph without a Unicode
    // mapping, a control character, drawn flat on the baseline and touching both letters (boxes: left, right,
    // bottom, top; right to left, so غ stands right of it and ة left).
    const text = 'باللغ\u0002ة';
    const at = 'باللغ'.length;
    const letters: [number, number, number, number][] = [
      [421.6, 427.6, 802.4, 808.8],
      [412.5, 418.2, 802.4, 808.5],
    ];
    const stroke: [number, number, number, number] = [418, 421.7, 802.4, 803.5];
    const boxes = (kashida: typeof stroke) => (i: number) =>
      i === at ? kashida : i === at - 1 ? letters[0] : i === at + 1 ? letters[1] : undefined;
    expect(isKashida(text, at, () => true, boxes(stroke))).toBe(true);
    // A separator's unmapped glyph is not one: no ink as high as the letters' (a gap between them), or mapped.
    expect(isKashida(text, at, () => true, boxes([418, 421.7, 802.4, 808]))).toBe(false);
    expect(isKashida(text, at, () => true, boxes([416, 419.7, 802.4, 803.5]))).toBe(false);
    expect(isKashida(text, at, () => false, boxes(stroke))).toBe(false);
    // Nor between Latin letters.
    expect(isKashida('ab\u0002c', 2, () => true, boxes(stroke))).toBe(false);
  });

  it("leaves out the space of an Arabic mark's spacing form, which splits the word the mark is on", () => {
    // "العربيّة" and "بيّن" as PDFium gives XeTeX's pages (Amiri): the shadda's glyph maps to a space and the shadda,
    // and the space takes no room. Also after another mark ("أَ َ" for hamza then fatha).
    const noRoom = () => true;
    for (const word of ['العربي \u0651ة', 'بي \u0651ن', 'أ\u064e\u0654 \u064eعط'])
      expect(isSpaceBeforeMark(word, word.indexOf(' '), noRoom)).toBe(true);
    // A space that takes room stays: the mark shown alone after a word ("الفتحة َ").
    expect(isSpaceBeforeMark('الفتحة \u064e', 'الفتحة'.length, () => false)).toBe(false);
    // A space between words stays, and so does one before a mark after a Latin letter or at a line's start.
    expect(isSpaceBeforeMark('اللغة العربية', 'اللغة'.length, noRoom)).toBe(false);
    expect(isSpaceBeforeMark('in \u064bا', 2, noRoom)).toBe(false);
    expect(isSpaceBeforeMark(' \u0651ة', 0, noRoom)).toBe(false);
  });

  it("reads a justified Arabic paragraph's words whole, as LibreOffice prints it with kashidas", async () => {
    // TeX Live's Arabic book template's first paragraph (arabic-book.tex, LPPL), set justified right to left in an
    // HTML page (justified.html) and printed to PDF by LibreOffice 7.4.
    const outputDir = path.join(dir, 'kashidas');
    await fs.mkdir(outputDir);
    const result = await createPdfExtractor('pdfium')(path.join(FIXTURES, 'pdf-arabic/justified.pdf'), {
      extractImages: false,
      outputDir,
    });
    const source = await fs.readFile(path.join(FIXTURES, 'pdf-arabic/justified.html'), 'utf8');
    const arabicWords = (text: string) => text.match(/\p{Script=Arabic}+/gu) ?? [];
    const written = new Set(arabicWords(source.replace(/<[^>]*>/g, ' ')));
    const read = arabicWords(result.text);
    expect(read.length).toBeGreaterThanOrEqual(50);
    expect(read.filter((word) => !written.has(word))).toEqual([]);
  });
});

describe('the corpus of PDFs', () => {
  it('reads text set on several lines that PDFium gives as one line on its lines (pdf.js corpus, issue16263)', async () => {
    const outputDir = path.join(dir, 'issue16263');
    await fs.mkdir(outputDir);
    const result = await createPdfExtractor('pdfium')(path.join(CORPUS, 'issue16263.pdf'), {
      extractImages: false,
      outputDir,
    });
    // A grid of "OA + OB + OC = u", three to a row (pdftotext -layout), which PDFium gives as one line.
    const lines = result.segments.flatMap((s) => s.text.split('\n')).filter((line) => line.includes('OA'));
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines.filter((line) => line.match(/OA/g)!.length > 3)).toEqual([]);
  });

  it('leaves no PDFium hyphen mark (U+FFFE) in the text of any file', async () => {
    const files = (await fs.readdir(CORPUS)).filter((file) => file.endsWith('.pdf'));
    expect(files.length).toBeGreaterThanOrEqual(100);
    const extractor = createPdfExtractor('pdfium');
    const marked: string[] = [];
    for (const file of files) {
      const outputDir = path.join(dir, `corpus-${file}`);
      await fs.mkdir(outputDir);
      const result = await extractor(path.join(CORPUS, file), { extractImages: false, outputDir }).catch(
        () => undefined,
      );
      if (result?.text.includes('\ufffe') || result?.segments.some((s) => s.text.includes('\ufffe'))) marked.push(file);
    }
    expect(marked).toEqual([]);
  }, 300_000);
});

describe('a table drawn as a ruled grid in an untagged PDF', () => {
  it('keeps its rows and cells, a merged cell spanning its columns, apart from the text around it', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      doc.font('Helvetica').fontSize(11);
      doc.table({
        data: [
          ['Organelle', 'Share', 'Membranes'],
          [{ text: 'Both columns merged', colSpan: 2 }, 'two'],
          ['Mitochondria', '22 %', 'two'],
        ],
      });
      doc.moveDown(1);
      body(doc, BODY);
    });
    const result = await extract(pdf);
    expect(result.segments.map((s) => s.kind ?? 'paragraph')).toEqual(['paragraph', 'table', 'paragraph']);
    expect(result.segments[1]!.rows).toEqual([
      [{ text: 'Organelle' }, { text: 'Share' }, { text: 'Membranes' }],
      [{ text: 'Both columns merged', colSpan: 2 }, { text: 'two' }],
      [{ text: 'Mitochondria' }, { text: '22 %' }, { text: 'two' }],
    ]);
  });

  it("reads a slide's table of filled cells running off the page, over a text box it hides, as a table", async () => {
    const rows = [
      ['Planet', 'Moons', 'Rings'],
      ['Mercury', 'none', 'no'],
      ['Jupiter', 'ninety five', 'faint'],
      ['Saturn', 'one hundred forty six', 'bright'],
    ];
    const pdf = await renderPdf({ autoFirstPage: false }, (doc) => {
      doc.addPage({ size: [720, 405], margin: 0 });
      // The slide's background, whose outline the table's last row runs past at the page's foot.
      doc.rect(0, 0, 720, 405).fill('#ffffff');
      doc.fillColor('black').font('Helvetica-Bold').fontSize(32).text('Planets and moons', 60, 40);
      // A text box the table is laid over: painted first, it is hidden under the cells' fills.
      doc.font('Helvetica').fontSize(12).text('Hidden note under the table', 200, 250, { lineBreak: false });
      rows.forEach((cells, r) =>
        cells.forEach((text, c) => {
          const [x, y] = [90 + c * 180, 110 + r * 80];
          doc.rect(x, y, 180, 80).fill(r % 2 ? '#d0d6dc' : '#15607f');
          doc
            .fillColor('black')
            .font('Helvetica')
            .fontSize(14)
            .text(text, x + 8, y + 8, { width: 164 });
        }),
      );
      doc.addPage({ size: [720, 405], margin: 0 });
      doc.font('Helvetica').fontSize(12).text('Some points:', 60, 60);
      doc.text('1. First point', 60, 90).text('2. Second point', 60, 110);
    });
    const result = await extract(pdf);
    const table = result.segments.find((s) => s.kind === 'table');
    expect(table?.rows).toEqual(rows.map((cells) => cells.map((text) => ({ text }))));
    expect(result.segments.find((s) => s.text.includes('Hidden note'))).toMatchObject({
      text: 'Hidden note under the table',
    });
    // The table's cells, more text than the slides', leave the body's size to the slides' text: the numbered
    // lines are a list, not footnotes.
    expect(result.segments.filter((s) => s.kind === 'list-item').map((s) => [s.text, s.number])).toEqual([
      ['First point', 1],
      ['Second point', 2],
    ]);
  });

  it('leaves a lone rule (an underline, a frame around a paragraph) out of any table', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      doc.moveTo(72, 200).lineTo(500, 200).stroke();
      doc.rect(60, 220, 470, 80).stroke();
      doc.text(BODY, 72, 230, { width: 440 });
    });
    const result = await extract(pdf);
    expect(result.segments.some((s) => s.kind === 'table')).toBe(false);
  });

  it('reads a grid whose rules run through words (shapes drawn over text) as the text it is', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      for (const y of [100, 160, 220]) doc.moveTo(72, y).lineTo(500, y).stroke();
      for (const x of [72, 250, 500]) doc.moveTo(x, 100).lineTo(x, 220).stroke();
      doc.font('Helvetica').fontSize(11).text(BODY, 80, 110, { width: 410 });
      doc.text(BODY, 80, 170, { width: 410 });
    });
    const result = await extract(pdf);
    expect(result.segments.some((s) => s.kind === 'table')).toBe(false);
    expect(result.text.replace(/\s+/g, ' ')).toContain(BODY);
  });

  it('reads words framed one by one, the frames touching in a grid, as the sentence they are', async () => {
    const words = ['Cells', 'keep', 'their', 'energy', 'small', 'molecules', 'and', 'spend'];
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Helvetica').fontSize(11);
      for (const [line, y] of [
        [words.slice(0, 4), 100],
        [words.slice(4), 114],
      ] as const) {
        let x = 72;
        for (const word of line) {
          const width = doc.widthOfString(word);
          doc.text(word, x, y + 2, { lineBreak: false });
          // Each word in a frame 14 pt high, a space's width apart from the next: the frames' sides line up.
          doc.rect(x - 1, y, width + 2, 14).stroke();
          x += width + doc.widthOfString(' ');
        }
      }
    });
    const result = await extract(pdf);
    expect(result.segments.some((s) => s.kind === 'table')).toBe(false);
    expect(result.text.replace(/\s+/g, ' ')).toContain('Cells keep their energy');
  });
});

describe('a table aligned without rules in an untagged PDF', () => {
  /** Writes each row's cells at the columns' left edges, one row every 16 pt from `top`. */
  function rows(doc: PDFKit.PDFDocument, top: number, columns: number[], cells: string[][], boldFirst = false) {
    cells.forEach((row, r) => {
      doc.font(boldFirst && r === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(11);
      row.forEach((text, c) => {
        if (text) doc.text(text, columns[c], top + r * 16, { lineBreak: false });
      });
    });
    doc.text('', 72, top + cells.length * 16 + 14);
  }

  it('reads a 3-column table with a bold header as a table, the text above and below it as paragraphs', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      rows(
        doc,
        doc.y,
        [72, 200, 330],
        [
          ['Organelle', 'Membranes', 'Share of volume'],
          ['Nucleus', 'two', '6 %'],
          ['Mitochondria', 'two', '22 %'],
          ['Ribosome', '', 'under 1 %'],
        ],
        true,
      );
      body(doc, BODY, 72);
    });
    const result = await extract(pdf);
    expect(result.segments.map((s) => s.kind ?? 'paragraph')).toEqual(['paragraph', 'table', 'paragraph']);
    expect(result.segments[1]!.rows![0]!.every((cell) => cell.header)).toBe(true);
    expect(toMarkdown(result.segments)).toContain(
      [
        '| Organelle | Membranes | Share of volume |',
        '|---|---|---|',
        '| Nucleus | two | 6 % |',
        '| Mitochondria | two | 22 % |',
        '| Ribosome |   | under 1 % |',
      ].join('\n'),
    );
  });

  it('reads labels with their values and a two-column page of text as text, not as tables', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      body(doc, BODY);
      rows(
        doc,
        doc.y,
        [72, 180],
        [
          ['Name:', 'Ada Lovelace'],
          ['Born:', '10 December 1815'],
          ['City:', 'London'],
          ['Field:', 'Mathematics'],
        ],
      );
      // Two columns of text drawn row by row, left then right, as some producers do: each row is one line.
      const top = doc.y + 10;
      doc.font('Helvetica').fontSize(11);
      const words = BODY.split(' ');
      for (let row = 0; row < 6; row++) {
        const line = (from: number) => words.slice(from, from + 7).join(' ');
        doc.text(line((row * 7) % 28), 72, top + row * 14, { lineBreak: false });
        doc.text(line(((row + 2) * 7) % 28), 320, top + row * 14, { lineBreak: false });
      }
    });
    const result = await extract(pdf);
    expect(result.segments.some((s) => s.kind === 'table')).toBe(false);
    expect(result.text).toContain('Ada Lovelace');
  });
});

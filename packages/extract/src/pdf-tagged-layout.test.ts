import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPdf } from '@quire/testkit';
import { toMarkdown } from './markdown.ts';
import type { LayoutLine } from './pdf-layout.ts';
import { taggedElements } from './pdf-tagged-layout.ts';
import type { LineTag } from './pdf-tags.ts';
import { createPdfExtractor } from './pdf.ts';
import type { ExtractResult } from './types.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pdf-tagged-'));
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

const kinds = (result: ExtractResult) =>
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
    expect(kinds(result)).toEqual([
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
    expect(kinds(result).slice(0, 2)).toEqual([
      ['heading', 1, 'Field Notes'],
      ['heading', 2, 'Before the trip'],
    ]);
  });

  it('reads a tree that tags every block as a paragraph from the page, as an untagged file', async () => {
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
      root.end();
    });
    const result = await extract(pdf);
    expect(kinds(result)[1]).toEqual(['heading', 1, 'Energy']);
  });
});

describe('the document model of a tagged page, from its lines and their tags', () => {
  const line = (text: string, top: number, tag?: LineTag): LayoutLine => ({
    text,
    box: [72, top, 300, top + 11],
    size: 11,
    bold: false,
    ...(tag ? { tag } : {}),
  });
  const paragraph = (block: number): LineTag => ({ block, order: block, kind: 'paragraph' });

  it('reads a paragraph that starts with a check box as a check list item', () => {
    const elements = taggedElements([
      {
        page: 1,
        width: 612,
        height: 792,
        lines: [
          line('Tasks before release:', 72, paragraph(1)),
          line('☒ Design', 90, paragraph(2)),
          line('☐ Documentation', 108, paragraph(3)),
          line('Done by Friday', 126, { block: 4, order: 4, kind: 'heading', level: 2 }),
        ],
      },
    ]);
    expect(toMarkdown(elements)).toBe(
      '<!-- page 1 -->\n\nTasks before release:\n\n- [x] Design\n- [ ] Documentation\n\n## Done by Friday\n',
    );
  });

  it('puts the lines in the order of the tree, whatever order the page draws them in', () => {
    const elements = taggedElements([
      {
        page: 1,
        width: 612,
        height: 792,
        lines: [
          line('Second, drawn first', 72, paragraph(2)),
          line('First, drawn last', 90, { block: 1, order: 1, kind: 'heading', level: 1 }),
        ],
      },
    ]);
    expect(elements.map((e) => e.text)).toEqual(['First, drawn last', 'Second, drawn first']);
  });
});

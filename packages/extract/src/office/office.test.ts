import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeDocx,
  makeEncryptedOffice,
  makeOdt,
  makeOfficeZipBomb,
  makeOle2,
  makePptx,
  makeRtf,
  makeXlsx,
} from '@quire/testkit';
import { plainTextOf } from '../document.ts';
import { toMarkdown } from '../markdown.ts';
import { sniff } from '../sniff.ts';
import { extractTextFile } from '../text.ts';
import type { ExtractResult } from '../types.ts';
import { MAX_REPEATED_CHARS } from './odf.ts';
import { MAX_WORKBOOK_CHARS } from './text-budget.ts';

const SPREADSHEET_ML = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const ODF_NAMESPACES =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'office-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function read(bytes: Buffer, name: string, extractImages = true): Promise<ExtractResult> {
  const file = path.join(dir, name);
  await fs.writeFile(file, bytes);
  const outputDir = await fs.mkdtemp(path.join(dir, 'out-'));
  return extractTextFile(file, { extractImages, outputDir });
}

const simple = (result: ExtractResult) =>
  result.segments.map(({ kind, text, level, ordered, slide, sheet, hidden }) => ({
    kind,
    text,
    ...(level !== undefined ? { level } : {}),
    ...(ordered !== undefined ? { ordered } : {}),
    ...(slide !== undefined ? { slide } : {}),
    ...(sheet !== undefined ? { sheet } : {}),
    ...(hidden ? { hidden } : {}),
  }));

/** A Word document of the body given, with extra parts and relationships of the main part. */
async function wordDocument(
  body: string,
  parts: Record<string, string> = {},
  relationships: [string, string, string][] = [],
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  const rels = (list: [string, string, string][]) =>
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    list
      .map(
        ([id, type, target]) =>
          `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`,
      )
      .join('') +
    '</Relationships>';
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'word/document.xml']]));
  zip.file('word/_rels/document.xml.rels', rels(relationships));
  for (const [name, content] of Object.entries(parts)) zip.file(name, content);
  zip.file(
    'word/document.xml',
    '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
      'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" ' +
      `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('office sniffing', () => {
  it('names each format from its bytes, whatever the file is called', async () => {
    const head = (bytes: Buffer) => sniff(bytes.subarray(0, 4100));
    expect(await head(await makeDocx())).toEqual({
      supported: true,
      contentType: 'text',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect((await head(await makePptx())).mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    );
    expect((await head(await makeXlsx())).mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect((await head(await makeOdt())).mimeType).toBe('application/vnd.oasis.opendocument.text');
    expect(await head(makeRtf())).toMatchObject({ contentType: 'text', mimeType: 'application/rtf' });
    expect(await head(makeEncryptedOffice())).toMatchObject({ contentType: 'text', supported: true });
  });

  it('finds an OOXML package whose [Content_Types].xml comes last, from the names of its parts', async () => {
    const original = await JSZip.loadAsync(await makeXlsx());
    const reordered = new JSZip();
    for (const name of Object.keys(original.files)
      .filter((n) => n !== '[Content_Types].xml' && !original.files[n]!.dir)
      .sort())
      reordered.file(name, await original.file(name)!.async('nodebuffer'));
    // A picture that does not compress pushes the last entry beyond the head the sniffer sees.
    reordered.file('xl/media/image1.png', randomBytes(8000));
    reordered.file('[Content_Types].xml', await original.file('[Content_Types].xml')!.async('nodebuffer'));
    const bytes = await reordered.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect((await sniff(bytes.subarray(0, 4100))).mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });

  it('takes a consistent delimited table as CSV or TSV and prose with commas as plain text', async () => {
    const csv = Buffer.from('name,score,date\nAda,17,2024-01-01\nGrace,"12,5",2024-01-02\n');
    expect(await sniff(csv)).toMatchObject({ contentType: 'text', mimeType: 'text/csv' });
    expect((await sniff(Buffer.from('a\tb\n1\t2\n3\t4\n'))).mimeType).toBe('text/tab-separated-values');
    const prose = Buffer.from('Dear class,\nPlease read, then answer.\nThanks, see you soon.\nBye, all.\n');
    expect((await sniff(prose)).mimeType).toBe('text/plain');
    expect((await sniff(Buffer.from('Just one line, with a comma.'))).mimeType).toBe('text/plain');
  });

  it('refuses a zip that is no office package and an OLE2 file of no office format', async () => {
    const zip = new JSZip();
    zip.file('notes.txt', 'hello');
    expect(await sniff(await zip.generateAsync({ type: 'nodebuffer' }))).toMatchObject({ supported: false });
    const msi = makeOle2(['\u0005SummaryInformation', 'Property']);
    expect(await sniff(msi)).toMatchObject({ supported: false, mimeType: 'application/x-cfb' });
    expect(await sniff(makeOle2(['WordDocument', '1Table']))).toMatchObject({
      supported: true,
      mimeType: 'application/msword',
    });
  });
});

describe('Word', () => {
  it('reads headings through style chains and with their numbers, nested and numbered lists, a merged table, a picture, notes and the header', async () => {
    const result = await read(await makeDocx(), 'lesson.docx');
    expect(simple(result)).toEqual([
      { kind: 'page-header', text: 'Biology 101 handout' },
      { kind: 'title', text: 'Photosynthesis' },
      { kind: 'heading', text: 'Light reactions', level: 1 },
      { kind: 'paragraph', text: 'Plants turn light into sugar.' },
      { kind: 'paragraph', text: 'Remember the stomata' },
      { kind: 'heading', text: 'The thylakoid', level: 2 },
      { kind: 'list-item', text: 'Water is split', level: 1, ordered: false },
      { kind: 'list-item', text: 'Oxygen is released', level: 2, ordered: false },
      { kind: 'list-item', text: 'ATP is made', level: 1, ordered: false },
      { kind: 'list-item', text: 'First step', level: 1, ordered: true },
      { kind: 'list-item', text: 'Second step', level: 1, ordered: true },
      { kind: 'table', text: 'Stage\tInputs and outputs\nIn\tOut\nCalvin cycle\tCO2\tGlucose' },
      { kind: 'figure', text: 'A leaf under the microscope' },
      { kind: 'heading', text: '1 Dark reactions', level: 1 },
      { kind: 'heading', text: '1.1 Carbon fixation', level: 2 },
      { kind: 'heading', text: '1.2 Regeneration', level: 2 },
      { kind: 'paragraph', text: 'Read the chapter online' },
      { kind: 'footnote', text: 'Chlorophyll absorbs red and blue light.' },
    ]);
    const table = result.segments.find((segment) => segment.kind === 'table')!;
    expect(table.rows![0]).toEqual([
      { text: 'Stage', header: true, rowSpan: 2 },
      { text: 'Inputs and outputs', header: true, colSpan: 2 },
    ]);
    expect(result.segments.find((segment) => segment.kind === 'figure')!.image).toBe('image-1.webp');
    expect(result.images).toEqual([
      { file: 'image-1.webp', role: 'extracted', width: 320, height: 200, format: 'webp' },
    ]);
    expect(result.metadata).toMatchObject({
      format: 'docx',
      comments: [{ author: 'Reviewer', text: 'Check this figure' }],
    });
    // Comments stay out of the text; the text is the elements', a list's items a line each after their marker.
    expect(result.text).not.toContain('Check this figure');
    expect(result.text).toBe(plainTextOf(result.segments));
    expect(result.text).toContain(
      '* Water is split\n  * Oxygen is released\n* ATP is made\n1. First step\n2. Second step',
    );
    expect(toMarkdown(result.segments)).toContain('| Stage | Inputs and outputs | Inputs and outputs |');
  });

  it('unwraps a table of one cell, keeps a multi-level label as the item shows it, and numbers a list in a cell', async () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const p = (text: string, numId?: number, ilvl = 0) =>
      `<w:p>${numId ? `<w:pPr><w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr>` : ''}` +
      `<w:r><w:t>${text}</w:t></w:r></w:p>`;
    const tc = (...blocks: string[]) => `<w:tc>${blocks.join('')}</w:tc>`;
    const tr = (...cells: string[]) => `<w:tr>${cells.join('')}</w:tr>`;
    const tbl = (...rows: string[]) => `<w:tbl>${rows.join('')}</w:tbl>`;
    const body = [
      // A frame around a bulleted list and a real table.
      tbl(
        tr(
          tc(
            p('Pack a lunch', 1),
            p('Bring boots', 1),
            tbl(tr(tc(p('Day')), tc(p('Walk'))), tr(tc(p('Monday')), tc(p('Ridge')))),
          ),
        ),
      ),
      p('Chapter one', 2, 0),
      p('First part', 2, 1),
      p('A paragraph between.'),
      p('Second part', 2, 1),
      p('Chapter two', 2, 0),
      tbl(tr(tc(p('Steps')), tc(p('Mix', 3), p('Bake', 3)))),
    ].join('');
    const level = (ilvl: number, format: string, text: string) =>
      `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/></w:lvl>`;
    const numbering =
      `<?xml version="1.0"?><w:numbering ${W}>` +
      `<w:abstractNum w:abstractNumId="0">${level(0, 'bullet', '•')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="1">${level(0, 'decimal', '%1.')}${level(1, 'decimal', '%1.%2.')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="2">${level(0, 'decimal', '%1.')}</w:abstractNum>` +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
      '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num></w:numbering>';
    const docx = await wordDocument(body, { 'word/numbering.xml': numbering }, [
      ['rId1', 'numbering', 'numbering.xml'],
    ]);
    const result = await read(docx, 'framed.docx');
    expect(simple(result)).toEqual([
      { kind: 'list-item', text: 'Pack a lunch', level: 1, ordered: false },
      { kind: 'list-item', text: 'Bring boots', level: 1, ordered: false },
      { kind: 'table', text: 'Day\tWalk\nMonday\tRidge' },
      { kind: 'list-item', text: 'Chapter one', level: 1, ordered: true },
      // Word shows "1.1." and "1.2.": Markdown and the plain text could not, so the label is the item's.
      { kind: 'list-item', text: '1.1. First part', level: 2, ordered: false },
      { kind: 'paragraph', text: 'A paragraph between.' },
      { kind: 'list-item', text: '1.2. Second part', level: 2, ordered: false },
      { kind: 'list-item', text: 'Chapter two', level: 1, ordered: true },
      { kind: 'table', text: 'Steps\t1. Mix 2. Bake' },
    ]);
    expect(toMarkdown(result.segments)).toContain('| Steps | 1. Mix 2. Bake |');
  });

  it("keeps a numbered list's count where Word resumes it after a bullet list or restarts it, and gives letters no number", async () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const p = (text: string, numId?: number) =>
      `<w:p>${numId ? `<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="${numId}"/></w:numPr></w:pPr>` : ''}` +
      `<w:r><w:t>${text}</w:t></w:r></w:p>`;
    const body = [
      p('Steps:'),
      p('First', 2),
      p('Second', 2),
      p('Pack a lunch', 1),
      p('Bring boots', 1),
      p('Third', 2),
      p('Questions:'),
      p('Why walk?', 3),
      p('Restarted:'),
      p('Again first', 4),
      p('Again second', 4),
    ].join('');
    const level = (format: string, text: string) =>
      `<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/></w:lvl>`;
    const numbering =
      `<?xml version="1.0"?><w:numbering ${W}>` +
      `<w:abstractNum w:abstractNumId="0">${level('bullet', '•')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="1">${level('decimal', '%1.')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="2">${level('lowerLetter', '%1.')}</w:abstractNum>` +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
      '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>' +
      // Word's "Restart at 1": another numbering of the same list, starting its level again.
      '<w:num w:numId="4"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>' +
      '</w:numbering>';
    const docx = await wordDocument(body, { 'word/numbering.xml': numbering }, [
      ['rId1', 'numbering', 'numbering.xml'],
    ]);
    const result = await read(docx, 'resumed.docx');
    const items = result.segments.filter((segment) => segment.kind === 'list-item');
    expect(items.map(({ text, number }) => [text, number])).toEqual([
      ['First', 1],
      ['Second', 2],
      ['Pack a lunch', undefined],
      ['Bring boots', undefined],
      ['Third', 3],
      // Word shows "a.", which the item keeps as its label.
      ['a. Why walk?', undefined],
      ['Again first', 1],
      ['Again second', 2],
    ]);
    expect(toMarkdown(result.segments)).toContain('1. First\n2. Second\n\n- Pack a lunch\n- Bring boots\n\n3. Third');
    expect(result.text).toBe(plainTextOf(result.segments));
    expect(result.text).toContain('* Bring boots\n3. Third');
  });

  it('writes equations in LaTeX: inline in running text, display ones as formulas', async () => {
    const m = (inner: string) => `<m:oMath>${inner}</m:oMath>`;
    const r = (text: string) => `<m:r><m:t>${text}</m:t></m:r>`;
    const body =
      `<w:p><w:r><w:t xml:space="preserve">The area is </w:t></w:r>${m(`${r('A=πr')}<m:sSup><m:e>${r('')}</m:e><m:sup>${r('2')}</m:sup></m:sSup>`)}<w:r><w:t>.</w:t></w:r></w:p>` +
      `<w:p><m:oMathPara>${m(
        // A display equation wrapped in an array of one row, as Word numbers one: no array in the LaTeX.
        `<m:eqArr><m:e>${r('x=')}<m:f><m:num>${r('-b±')}<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${r('Δ')}</m:e></m:rad></m:num><m:den>${r('2a')}</m:den></m:f></m:e></m:eqArr>`,
      )}</m:oMathPara></w:p>` +
      `<w:p>${m(
        `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('n=1')}</m:sub><m:sup>${r('∞')}</m:sup><m:e><m:sSub><m:e>${r('a')}</m:e><m:sub>${r('n')}</m:sub></m:sSub></m:e></m:nary>` +
          `<m:d><m:e>${r('x')}</m:e></m:d><m:func><m:fName>${r('log')}</m:fName><m:e>${r('y')}</m:e></m:func>` +
          `<m:limLow><m:e><m:groupChr><m:e>${r('a+b')}</m:e></m:groupChr></m:e><m:lim>${r('n')}</m:lim></m:limLow>` +
          `<m:eqArr><m:e>${r('a')}</m:e><m:e>${r('b')}</m:e></m:eqArr>`,
      )}</w:p>`;
    const result = await read(await wordDocument(body), 'equations.docx');
    expect(simple(result)).toEqual([
      { kind: 'paragraph', text: 'The area is $A= \\pi r^{2}$ .' },
      { kind: 'formula', text: 'x=\\frac{-b \\pm \\sqrt{ \\Delta }}{2a}' },
      {
        kind: 'formula',
        text: '\\sum_{n=1}^{ \\infty }{a_{n}}\\left(x\\right)\\log{y}\\underbrace{a+b}_{n}\\begin{array}{c}a \\\\ b\\end{array}',
      },
    ]);
    expect(toMarkdown(result.segments)).toContain('$$\nx=\\frac{-b \\pm \\sqrt{ \\Delta }}{2a}\n$$');
  });

  it("writes a chart in a Word document as its title and a table of its cached categories and series' values", async () => {
    const chart =
      '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>' +
      '<c:title><c:tx><c:rich><a:p><a:r><a:t>Ducks seen</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>' +
      ['Lake', 'Sea']
        .map(
          (name, s) =>
            `<c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>${name}</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
            '<c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>2021</c:v></c:pt><c:pt idx="1"><c:v>2022</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
            `<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>${10 + s}</c:v></c:pt><c:pt idx="1"><c:v>${20 + s}</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>`,
        )
        .join('') +
      '</c:barChart></c:plotArea></c:chart></c:chartSpace>';
    const body =
      '<w:p><w:r><w:t>Before the chart</w:t></w:r><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId9"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';
    const result = await read(
      await wordDocument(body, { 'word/charts/chart1.xml': chart }, [['rId9', 'chart', 'charts/chart1.xml']]),
      'charted.docx',
    );
    expect(simple(result)).toEqual([
      { kind: 'paragraph', text: 'Before the chart' },
      { kind: 'caption', text: 'Ducks seen' },
      { kind: 'table', text: '\tLake\tSea\n2021\t10\t11\n2022\t20\t21' },
    ]);
    expect(result.segments[2]!.rows![0]!.every((cell) => cell.header)).toBe(true);
    expect(toMarkdown(result.segments)).toContain('| 2022 | 20 | 21 |');
    // A cache that claims a point far out (a damaged or hostile file) costs a bounded table, not a million rows.
    const far = chart.replace('<c:pt idx="1"><c:v>20</c:v>', '<c:pt idx="999999"><c:v>20</c:v>');
    const capped = await read(
      await wordDocument(body, { 'word/charts/chart1.xml': far }, [['rId9', 'chart', 'charts/chart1.xml']]),
      'far.docx',
    );
    expect(capped.segments.find((segment) => segment.kind === 'table')!.rows).toHaveLength(1001);
  });

  it('reads check boxes (content controls and legacy form fields) by their state and writes check lists as task items', async () => {
    const box = (checked: string) =>
      `<w:sdt><w:sdtPr><w14:checkbox xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"><w14:checked w14:val="${checked}"/></w14:checkbox></w:sdtPr>` +
      // The glyph shown disagrees with the state on purpose: the state wins.
      '<w:sdtContent><w:r><w:t>?</w:t></w:r></w:sdtContent></w:sdt>';
    const field = (value: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:checkBox><w:default w:val="${value}"/></w:checkBox></w:ffData></w:fldChar></w:r>`;
    const body =
      `<w:p>${box('1')}<w:r><w:t xml:space="preserve"> Coffee</w:t></w:r></w:p>` +
      `<w:p>${box('0')}<w:r><w:t xml:space="preserve"> Tea</w:t></w:r></w:p>` +
      `<w:p>${field('1')}<w:r><w:t xml:space="preserve"> Milk</w:t></w:r></w:p>` +
      `<w:p><w:r><w:t>Sugar?</w:t></w:r>${box('0')}</w:p>`;
    const result = await read(await wordDocument(body), 'checks.docx');
    expect(simple(result)).toEqual([
      { kind: 'list-item', text: '☒ Coffee', level: 1, ordered: false },
      { kind: 'list-item', text: '☐ Tea', level: 1, ordered: false },
      { kind: 'list-item', text: '☒ Milk', level: 1, ordered: false },
      // A box after the text is no check list's item.
      { kind: 'paragraph', text: 'Sugar?☐' },
    ]);
    expect(toMarkdown(result.segments)).toBe('- [x] Coffee\n- [ ] Tea\n- [x] Milk\n\nSugar?☐\n');
    expect(result.text).toContain('* ☒ Coffee\n* ☐ Tea');
  });

  it('never expands an XML entity bomb and ends a damaged zip CORRUPT, a bomb TOO_LARGE, an encrypted one ENCRYPTED', async () => {
    const original = await JSZip.loadAsync(await makeDocx());
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    original.file(
      'word/document.xml',
      `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY lol0 "lol">${lol}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Safe &lol9; text</w:t></w:r></w:p></w:body></w:document>`,
    );
    const bomb = await read(await original.generateAsync({ type: 'nodebuffer' }), 'entities.docx');
    expect(bomb.text.length).toBeLessThan(200);
    expect(bomb.text).toContain('Safe');

    const docx = await makeDocx();
    await expect(read(docx.subarray(0, docx.length - 40), 'cut.docx')).rejects.toMatchObject({ code: 'CORRUPT' });
    await expect(read(await makeOfficeZipBomb(), 'bomb.docx')).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(read(makeEncryptedOffice(), 'locked.docx')).rejects.toMatchObject({ code: 'ENCRYPTED' });
  });
});

describe('slides', () => {
  it('reads each slide in reading order, the grouped shapes placed by their group, the table, the picture and the notes', async () => {
    const result = await read(await makePptx(), 'deck.pptx');
    expect(simple(result)).toEqual([
      { kind: 'heading', text: 'Inside the chloroplast', level: 1, slide: 1 },
      { kind: 'paragraph', text: 'Upper text frame', slide: 1 },
      { kind: 'paragraph', text: 'Lower text frame', slide: 1 },
      { kind: 'paragraph', text: 'Grouped left', slide: 1 },
      { kind: 'paragraph', text: 'Grouped right', slide: 1 },
      { kind: 'table', text: 'Organelle\tJob\nChloroplast\tMakes sugar', slide: 1 },
      { kind: 'figure', text: 'A chloroplast', slide: 1 },
      { kind: 'notes', text: 'Mention the stroma and the thylakoid membranes', slide: 1 },
      { kind: 'heading', text: 'A hidden backup slide', level: 1, slide: 2, hidden: true },
      { kind: 'heading', text: 'Questions', level: 1, slide: 3 },
      { kind: 'notes', text: 'Ask about chemiosmosis before the break', slide: 3 },
    ]);
    expect(result.metadata).toMatchObject({ format: 'pptx', slideCount: 3, hiddenSlides: [2] });
    expect(result.images).toMatchObject([{ file: 'image-1.webp', page: 1, width: 320, height: 200 }]);
  });
});

describe('sheets', () => {
  it('reads each sheet as a table: shared strings, cached formula values, dates formatted, empty rows and columns dropped', async () => {
    const result = await read(await makeXlsx(), 'grades.xlsx');
    expect(simple(result)).toEqual([
      { kind: 'heading', text: 'Grades', level: 2, sheet: 1 },
      {
        kind: 'table',
        text: 'Student\tScore\tHanded in\nAda\t0.3\t2024-01-01\nGrace\t17\t2024-01-02\nTotal\t17.3\t',
        sheet: 1,
      },
      { kind: 'heading', text: 'Schedule', level: 2, sheet: 2 },
      { kind: 'table', text: 'Lab\t2024-01-01 12:00:00\tRoom 4', sheet: 2 },
    ]);
    expect(result.segments[1]!.rows![0]!.every((cell) => cell.header)).toBe(true);
    expect(result.metadata).toMatchObject({ format: 'xlsx', sheetCount: 2 });
  });

  it("writes a chart drawn on a sheet as its alt text, title and cached data, and a picture as its alt text, after the sheet's table", async () => {
    const zip = await JSZip.loadAsync(await makeXlsx());
    const rel = (id: string, type: string, target: string) =>
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/></Relationships>`;
    zip.file('xl/worksheets/_rels/sheet1.xml.rels', rel('rId1', 'drawing', '../drawings/drawing1.xml'));
    zip.file('xl/drawings/_rels/drawing1.xml.rels', rel('rId1', 'chart', '../charts/chart1.xml'));
    zip.file(
      'xl/drawings/drawing1.xml',
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        '<xdr:twoCellAnchor><xdr:graphicFrame><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1" descr="Bar chart of scores"/></xdr:nvGraphicFramePr><c:chart r:id="rId1"/></xdr:graphicFrame></xdr:twoCellAnchor>' +
        '<xdr:oneCellAnchor><xdr:pic><xdr:nvPicPr><xdr:cNvPr id="3" name="Image 1" descr="Class photo"/></xdr:nvPicPr></xdr:pic></xdr:oneCellAnchor></xdr:wsDr>',
    );
    zip.file(
      'xl/charts/chart1.xml',
      '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>' +
        '<c:title><c:tx><c:rich><a:p><a:r><a:t>Scores by student</a:t></a:r></a:p></c:rich></c:tx></c:title>' +
        '<c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>Score</c:v></c:pt></c:strCache></c:strRef></c:tx>' +
        '<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>17</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>',
    );
    const result = await read(await zip.generateAsync({ type: 'nodebuffer' }), 'charted.xlsx');
    expect(simple(result).slice(1, 6)).toEqual([
      expect.objectContaining({ kind: 'table', sheet: 1 }),
      // The drawing's alt texts, in its order.
      { kind: 'figure', text: 'Bar chart of scores', sheet: 1 },
      { kind: 'caption', text: 'Scores by student', sheet: 1 },
      // Its cached data: no categories cached, so the points are numbered.
      { kind: 'table', text: '\tScore\n1\t17', sheet: 1 },
      { kind: 'figure', text: 'Class photo', sheet: 1 },
    ]);
    expect(simple(result)[6]).toEqual({ kind: 'heading', text: 'Schedule', level: 2, sheet: 2 });
  });

  it('reads a CSV as one table with its quoted fields', async () => {
    const result = await read(Buffer.from('name,score\nAda,17\n"Hopper, Grace","12,5"\n'), 'scores.csv');
    expect(result.segments).toEqual([
      {
        kind: 'table',
        sheet: 1,
        text: 'name\tscore\nAda\t17\nHopper, Grace\t12,5',
        rows: [
          [
            { text: 'name', header: true },
            { text: 'score', header: true },
          ],
          [{ text: 'Ada' }, { text: '17' }],
          [{ text: 'Hopper, Grace' }, { text: '12,5' }],
        ],
      },
    ]);
    expect(result.metadata).toMatchObject({ format: 'csv', sheetCount: 1 });
  });

  // A cell can name text it does not hold (a shared string, an ODF repeat): POI's poc-shared-strings.xlsx refers
  // to one 1 MB string from 12,000 cells. A mebi-character cell in 40 cells is 40 Mi characters of text.
  const mebi = 'abcdefg '.repeat(128 * 1024).trim();
  const cutAtTheWorkbooksCharacters = (result: ExtractResult, format: string, names: string[]) => {
    const cellsKept = Math.floor(MAX_WORKBOOK_CHARS / mebi.length);
    expect(result.text.length).toBeLessThan(MAX_WORKBOOK_CHARS + 1000);
    expect(result.text.length).toBeGreaterThan(MAX_WORKBOOK_CHARS - mebi.length);
    expect(result.metadata).toMatchObject({
      format,
      sheetCount: names.length,
      cutSheets: names.map((name, index) => ({
        sheet: index + 1,
        name,
        cellsKept: index === 0 ? cellsKept : 0,
        cutAt: 'maxWorkbookChars',
      })),
      maxWorkbookChars: MAX_WORKBOOK_CHARS,
    });
    expect(result.metadata).not.toHaveProperty('maxCellsPerSheet');
  };

  it("cuts a workbook's text at maxWorkbookChars, the later sheets left without cells, and says so in the metadata", async () => {
    const xlsx = await JSZip.loadAsync(await makeXlsx());
    xlsx.file('xl/sharedStrings.xml', `<sst xmlns="${SPREADSHEET_ML}"><si><t>${mebi}</t></si></sst>`);
    const rows = Array.from(
      { length: 20 },
      (_, row) => `<row r="${row + 1}"><c t="s"><v>0</v></c><c t="s"><v>0</v></c></row>`,
    );
    xlsx.file(
      'xl/worksheets/sheet1.xml',
      `<worksheet xmlns="${SPREADSHEET_ML}"><sheetData>${rows.join('')}</sheetData></worksheet>`,
    );
    const workbook = await read(await xlsx.generateAsync({ type: 'nodebuffer' }), 'shared-string-bomb.xlsx');
    cutAtTheWorkbooksCharacters(workbook, 'xlsx', ['Grades', 'Schedule']);
    expect(simple(workbook).map((segment) => segment.kind)).toEqual(['heading', 'table', 'heading']);

    const ods = await JSZip.loadAsync(await makeOdt());
    ods.file('mimetype', 'application/vnd.oasis.opendocument.spreadsheet', { compression: 'STORE' });
    const cells = `<table:table-row table:number-rows-repeated="40"><table:table-cell><text:p>${mebi}</text:p></table:table-cell></table:table-row>`;
    ods.file(
      'content.xml',
      `<office:document-content ${ODF_NAMESPACES}><office:body><office:spreadsheet>` +
        `<table:table table:name="Repeated">${cells}</table:table><table:table table:name="After"><table:table-row><table:table-cell><text:p>Lost</text:p></table:table-cell></table:table-row></table:table>` +
        '</office:spreadsheet></office:body></office:document-content>',
    );
    cutAtTheWorkbooksCharacters(await read(await ods.generateAsync({ type: 'nodebuffer' }), 'repeats.ods'), 'ods', [
      'Repeated',
      'After',
    ]);
  });
});

describe('OpenDocument and RTF', () => {
  it('reads an ODT: heading, paragraph, nested and numbered lists, table, footnote', async () => {
    const result = await read(await makeOdt(), 'cells.odt');
    expect(simple(result)).toEqual([
      { kind: 'heading', text: 'Cell division', level: 1 },
      { kind: 'paragraph', text: 'Mitosis makes two identical cells.' },
      { kind: 'list-item', text: 'Prophase', level: 1, ordered: false },
      { kind: 'list-item', text: 'Chromosomes condense', level: 2, ordered: false },
      { kind: 'list-item', text: 'Metaphase', level: 1, ordered: false },
      { kind: 'list-item', text: 'Count the cells', level: 1, ordered: true },
      { kind: 'table', text: 'Phase\tHours\nMitosis\t1' },
      { kind: 'footnote', text: 'Meiosis makes four.' },
    ]);
    expect(result.metadata).toMatchObject({ format: 'odt' });
  });

  it("keeps an ODT list's numbers where a list continues another, and gives letters none", async () => {
    const odt = await JSZip.loadAsync(await makeOdt());
    const style = 'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';
    const numbers = (name: string, format: string, start = 1) =>
      `<text:list-style style:name="${name}"><text:list-level-style-number text:level="1" style:num-format="${format}" text:start-value="${start}"/></text:list-style>`;
    const item = (text: string, start?: number) =>
      `<text:list-item${start ? ` text:start-value="${start}"` : ''}><text:p>${text}</text:p></text:list-item>`;
    odt.file(
      'content.xml',
      `<office:document-content ${ODF_NAMESPACES} ${style}><office:automatic-styles>` +
        `${numbers('Steps', '1')}${numbers('Later', '1', 4)}${numbers('Letters', 'a')}` +
        '</office:automatic-styles><office:body><office:text>' +
        `<text:list xml:id="list1" text:style-name="Steps">${item('First')}${item('Second')}</text:list>` +
        '<text:p>A note.</text:p>' +
        `<text:list text:continue-list="list1" text:style-name="Steps">${item('Third')}</text:list>` +
        '<text:p>Another note.</text:p>' +
        `<text:list text:continue-numbering="true" text:style-name="Steps">${item('Fourth')}${item('Tenth', 10)}</text:list>` +
        `<text:list text:style-name="Later">${item('Fourth again')}</text:list>` +
        `<text:list text:style-name="Letters">${item('Why?')}</text:list>` +
        '</office:text></office:body></office:document-content>',
    );
    const result = await read(await odt.generateAsync({ type: 'nodebuffer' }), 'resumed.odt');
    const items = result.segments.filter((segment) => segment.kind === 'list-item');
    expect(items.map(({ text, ordered, number }) => [text, ordered, number])).toEqual([
      ['First', true, 1],
      ['Second', true, 2],
      ['Third', true, 3],
      ['Fourth', true, 4],
      ['Tenth', true, 10],
      ['Fourth again', true, 4],
      ['Why?', true, undefined],
    ]);
    expect(toMarkdown(result.segments)).toContain('A note.\n\n3. Third\n\nAnother note.\n\n4. Fourth\n10. Tenth');
  });

  it("writes an ODT table's repeated cells out up to maxRepeatedChars in all, and says so in the metadata", async () => {
    // LibreOffice writes equal neighbouring cells once with a repeat count; a file can repeat a long one.
    const long = 'lorem ipsum '.repeat(1000);
    const cell = (text: string, repeat: number) =>
      `<table:table-cell table:number-columns-repeated="${repeat}"><text:p>${text}</text:p></table:table-cell>`;
    const zip = await JSZip.loadAsync(await makeOdt());
    zip.file(
      'content.xml',
      `<office:document-content ${ODF_NAMESPACES}><office:body><office:text><text:p>Before</text:p>` +
        `<table:table><table:table-row>${cell('Day', 1)}${cell('0', 3)}</table:table-row>` +
        `<table:table-row>${cell(long, 1000)}</table:table-row><table:table-row>${cell(long, 1000)}</table:table-row></table:table>` +
        '<text:p>After</text:p></office:text></office:body></office:document-content>',
    );
    const result = await read(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), 'repeats.odt');
    const table = result.segments.find((segment) => segment.kind === 'table')!;
    expect(table.rows![0]!.map((c) => c.text)).toEqual(['Day', '0', '0', '0']);
    // The first long row copies its cell until the budget is spent; the second keeps the cell once.
    const copies = Math.floor((MAX_REPEATED_CHARS - 2) / long.trim().length);
    expect(table.rows![1]!.length).toBe(1 + copies);
    expect(table.rows![2]!.filter((c) => c.text).length).toBe(1);
    expect(result.text.length).toBeLessThan(MAX_REPEATED_CHARS + 3 * long.length);
    expect(simple(result).map((segment) => segment.text.slice(0, 6))).toEqual(['Before', 'Day\t0\t', 'After']);
    expect(result.metadata).toMatchObject({ format: 'odt', maxRepeatedChars: MAX_REPEATED_CHARS });
  });

  it("reads a chart embedded in an ODT (its own object's content.xml) as its title and its data table", async () => {
    const zip = await JSZip.loadAsync(await makeOdt());
    const content = await zip.file('content.xml')!.async('string');
    const ns =
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
    zip.file(
      'content.xml',
      content
        .replace('<office:document-content ', `<office:document-content ${ns} `)
        .replace(
          '</office:text>',
          '<text:p><draw:frame draw:name="Object 1"><draw:object xlink:href="./Object 1"/></draw:frame></text:p></office:text>',
        ),
    );
    const cell = (text: string) => `<table:table-cell><text:p>${text}</text:p></table:table-cell>`;
    zip.file(
      'Object 1/content.xml',
      '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
        'xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><office:body><office:chart><chart:chart>' +
        '<chart:title><text:p>Cells counted</text:p></chart:title><chart:plot-area/>' +
        `<table:table table:name="local-table"><table:table-header-rows><table:table-row>${cell('')}${cell('Mitosis')}</table:table-row></table:table-header-rows>` +
        `<table:table-rows><table:table-row>${cell('Day 1')}${cell('12')}</table:table-row></table:table-rows></table:table>` +
        '</chart:chart></office:chart></office:body></office:document-content>',
    );
    const result = await read(await zip.generateAsync({ type: 'nodebuffer' }), 'charted.odt');
    expect(simple(result).slice(-3)).toEqual([
      { kind: 'caption', text: 'Cells counted' },
      { kind: 'table', text: '\tMitosis\nDay 1\t12' },
      { kind: 'footnote', text: 'Meiosis makes four.' },
    ]);
  });

  it('reads an RTF to a heading and paragraphs, its code page and \\u escapes decoded, its tables of fonts and info left out', async () => {
    const result = await read(makeRtf(), 'enzymes.rtf');
    expect(simple(result)).toEqual([
      { kind: 'heading', text: 'Enzymes', level: 1 },
      { kind: 'paragraph', text: 'Enzymes speed up reactions in the café of the cell.' },
      { kind: 'paragraph', text: 'They are proteins — mostly.' },
    ]);
    expect(result.metadata).toMatchObject({ format: 'rtf' });
  });
});

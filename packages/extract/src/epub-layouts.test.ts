import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEpub, wordF1 } from '@quire/testkit';
import { extractEpub } from './epub.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-epub-layouts-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function extract(name: string, body: Buffer) {
  const outputDir = path.join(dir, name);
  await fs.mkdir(outputDir);
  const input = path.join(dir, `${name}.epub`);
  await fs.writeFile(input, body);
  return extractEpub(input, { extractImages: false, outputDir });
}

const chapters = [
  {
    title: 'Rivers',
    paragraphs: ['Rivers carry water from the mountains to the sea.', 'Their deltas are rich farmland.'],
  },
  { title: 'Lakes', paragraphs: ['Lakes store fresh water for whole regions.', 'Some freeze every winter.'] },
];
const written = (book: typeof chapters) => book.flatMap((c) => [c.title, ...c.paragraphs]).join(' ');

/** Rewrites one file of a generated book. */
async function rewrite(book: Buffer, file: string, change: (content: string) => string): Promise<Buffer> {
  const zip = await JSZip.loadAsync(book);
  zip.file(file, change(await zip.file(file)!.async('string')));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The same package document with every OPF element under an `opf:` prefix: valid XML, the same book. */
const prefixPackage = (opf: string) =>
  opf
    .replace('<package xmlns="http://www.idpf.org/2007/opf"', '<opf:package xmlns:opf="http://www.idpf.org/2007/opf"')
    .replace(/<(\/?)(metadata|manifest|item|spine|itemref|meta|package)\b/g, '<$1opf:$2');

/** A fixed-layout page: no HTML text, every line an SVG `<text>` (words split over `<tspan>`s, as converters do). */
const svgPage = (title: string, lines: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head>` +
  `<body><svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="600" height="800" viewBox="0 0 600 800">` +
  `<title>Page art</title><image width="600" height="800" href="../images/page.png"/>` +
  lines
    .map((line, i) => {
      const [first, ...rest] = line.split(' ');
      return `<text x="40" y="${60 + i * 40}" font-size="20"><tspan>${first}</tspan> <tspan>${rest.join(' ')}</tspan></text>`;
    })
    .join('') +
  `</svg></body></html>`;

describe('extractEpub on books other tools read', () => {
  it('reads a book whose package document puts its elements under a namespace prefix', async () => {
    const book = await rewrite(await makeEpub(chapters, { title: 'Water' }), 'OEBPS/content.opf', prefixPackage);
    const result = await extract('prefixed', book);
    expect(result.metadata).toMatchObject({ chapterCount: 2 });
    expect(result.metadata.textless).toBeUndefined();
    expect(wordF1(result.text, written(chapters))).toBeGreaterThanOrEqual(0.95);
    expect([...new Set(result.segments.map((s) => s.chapter))]).toEqual([1, 2]);
  });

  it('reads the SVG text of fixed-layout pages', async () => {
    const lines = ['The desert blooms after rare rain', 'Seeds wait years for water', 'Then flowers cover the sand'];
    const book = await rewrite(await makeEpub(chapters), 'OEBPS/text/y-part.xhtml', () => svgPage('Deserts', lines));
    const result = await extract('svg', book);
    const second = result.segments.find((s) => s.chapter === 2)!;
    expect(wordF1(second.text, lines.join(' '))).toBeGreaterThanOrEqual(0.95);
    // The picture's <title> labels the art, it is not page text.
    expect(second.text).not.toContain('Page art');
    expect(wordF1(result.text, [chapters[0]!.title, ...chapters[0]!.paragraphs, ...lines].join(' '))).toBeGreaterThan(
      0.95,
    );
  });

  it('says so in the metadata when chapters hold no text at all', async () => {
    const book = await rewrite(
      await rewrite(await makeEpub(chapters), 'OEBPS/text/z-part.xhtml', () => svgPage('Blank', [])),
      'OEBPS/text/y-part.xhtml',
      () => svgPage('Blank', []),
    );
    const result = await extract('empty', book);
    expect(result.text).toBe('');
    expect(result.metadata).toMatchObject({ textless: true, chapterCount: 2 });
  });
});

describe('extractEpub on EPUB 3 content of foreign media types', () => {
  it('reads an <object> through its fallback content and an epub:switch through its epub:default', async () => {
    const interactive = (content: string) =>
      content.replace(
        '</body>',
        '<object type="application/x-quiz+json" data="../quiz/rivers.json"><param name="mode" value="practice"/>' +
          '<p>Quiz: which river carries the most water? The Amazon.</p></object>' +
          '<epub:switch xmlns:epub="http://www.idpf.org/2007/ops">' +
          '<epub:case required-namespace="http://www.w3.org/1998/Math/MathML"><math><mi>flow</mi><mo>=</mo><mi>rate</mi></math></epub:case>' +
          '<epub:default><p>Flow equals area times speed.</p></epub:default></epub:switch></body>',
      );
    const book = await rewrite(await makeEpub(chapters), 'OEBPS/text/z-part.xhtml', interactive);
    const { text } = await extract('interactive', book);
    expect(text).toContain('Quiz: which river carries the most water? The Amazon.');
    expect(text).toContain('Flow equals area times speed.');
    expect(text).not.toMatch(/flow\s*=\s*rate/);
    expect(text).toContain('Their deltas are rich farmland.');
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEpub, makeZipBomb } from '@quire/testkit';
import { extractEpub } from './epub.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-epub-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function extract(name: string, body: Buffer, extractImages = false) {
  const outputDir = path.join(dir, name);
  await fs.mkdir(outputDir);
  const input = path.join(dir, `${name}.epub`);
  await fs.writeFile(input, body);
  return { result: await extractEpub(input, { extractImages, outputDir }), outputDir };
}

const chapters = [
  { title: 'The Seed', paragraphs: ['A seed waits in the <em>cold</em> ground.', 'Rain arrives in spring.'] },
  { title: 'The Sprout', paragraphs: ['Green shoots break the soil.'] },
  { title: 'The Flower', paragraphs: ['Petals open toward the sun.'] },
];

describe('extractEpub', () => {
  it('reads title, author, language and the chapters as text in spine order', async () => {
    const book = await makeEpub(chapters, { title: 'A Plant Grows', author: 'Rosalind Franklin', language: 'en-GB' });
    const { result } = await extract('book', book);
    expect(result.metadata).toMatchObject({
      title: 'A Plant Grows',
      author: 'Rosalind Franklin',
      language: 'en-gb',
      chapterCount: 3,
    });
    expect(result.segments).toEqual([
      { chapter: 1, kind: 'heading', level: 1, text: 'The Seed' },
      { chapter: 1, text: 'A seed waits in the cold ground.' },
      { chapter: 1, text: 'Rain arrives in spring.' },
      { chapter: 2, kind: 'heading', level: 1, text: 'The Sprout' },
      { chapter: 2, text: 'Green shoots break the soil.' },
      { chapter: 3, kind: 'heading', level: 1, text: 'The Flower' },
      { chapter: 3, text: 'Petals open toward the sun.' },
    ]);
    expect(result.text).not.toMatch(/<|>|&lt;/);
    expect(result.text.indexOf('seed waits')).toBeLessThan(result.text.indexOf('shoots'));
    expect(result.text.indexOf('shoots')).toBeLessThan(result.text.indexOf('Petals'));

    const listed = result.metadata.chapters as { chapter: number; title: string; offset: number; length: number }[];
    expect(listed.map((c) => [c.chapter, c.title])).toEqual([
      [1, 'The Seed'],
      [2, 'The Sprout'],
      [3, 'The Flower'],
    ]);
    expect(result.text.slice(listed[1]!.offset, listed[1]!.offset + listed[1]!.length)).toBe(
      'The Sprout\n\nGreen shoots break the soil.',
    );
    expect(result.metadata.toc).toEqual([
      { title: 'The Seed', level: 0, href: 'OEBPS/text/z-part.xhtml', chapter: 1 },
      { title: 'The Sprout', level: 0, href: 'OEBPS/text/y-part.xhtml', chapter: 2 },
      { title: 'The Flower', level: 0, href: 'OEBPS/text/x-part.xhtml', chapter: 3 },
    ]);
  });

  it('keeps the pictures of the book with their chapter and skips decoration', async () => {
    const book = await makeEpub(chapters, { pictureInChapter: 2 });
    const { result, outputDir } = await extract('pictures', book, true);
    expect(result.images).toEqual([
      { file: expect.any(String), role: 'extracted', chapter: 2, width: 400, height: 300, format: 'webp' },
    ]);
    expect((await fs.stat(path.join(outputDir, result.images[0]!.file))).size).toBeGreaterThan(0);
    expect((await extract('no-pictures', book)).result.images).toEqual([]);
  });

  it('refuses a zip bomb as TOO_LARGE without inflating it', async () => {
    const bomb = await makeZipBomb(64);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    await expect(extract('bomb', bomb)).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: expect.stringMatching(/zip bomb/),
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a broken zip and a zip that is no book as CORRUPT', async () => {
    const book = await makeEpub(chapters);
    await expect(extract('cut', book.subarray(0, book.length - 200))).rejects.toMatchObject({ code: 'CORRUPT' });
    const notABook = new JSZip();
    notABook.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
    notABook.file('readme.txt', 'no container, no package');
    await expect(extract('no-container', await notABook.generateAsync({ type: 'nodebuffer' }))).rejects.toMatchObject({
      code: 'CORRUPT',
    });
  });

  it('refuses a DRM-protected book as ENCRYPTED', async () => {
    const zip = await JSZip.loadAsync(await makeEpub(chapters));
    zip.file(
      'META-INF/encryption.xml',
      '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
        '<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>' +
        '<enc:CipherData><enc:CipherReference URI="OEBPS/text/z-part.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>',
    );
    await expect(extract('drm', await zip.generateAsync({ type: 'nodebuffer' }))).rejects.toMatchObject({
      code: 'ENCRYPTED',
    });
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, pdfWithPictures } from '@quire/testkit';
import sharp from 'sharp';
import { createPdfExtractor, type PdfEngine } from './pdf.ts';
import { PdfiumPdf } from './pdfium.ts';
import type { ExtractOptions } from './types.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pdf-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

let engine: PdfEngine;

async function extract(name: string, body: Buffer, extractImages = false, options: Partial<ExtractOptions> = {}) {
  const outputDir = path.join(dir, `${engine}-${name}`);
  await fs.mkdir(outputDir);
  const input = path.join(dir, `${engine}-${name}.pdf`);
  await fs.writeFile(input, body);
  const pageCounts: number[] = [];
  const result = await createPdfExtractor(engine)(input, {
    extractImages,
    outputDir,
    onPageCount: (n) => pageCounts.push(n),
    ...options,
  });
  return { result, outputDir, pageCounts };
}

describe.each(['pdfium', 'pdf-parse'] as const)('the PDF extractor with engine %s', (name) => {
  beforeAll(() => {
    engine = name;
  });

  it('reads each page where it is, the document info, and reports the page count once', async () => {
    const pdf = await makePdf(['Mitochondria make energy.', 'Ribosomes build proteins.', 'Lysosomes digest waste.'], {
      title: 'Cell Biology',
      author: 'Ada Lovelace',
    });
    const { result, pageCounts } = await extract('info', pdf);
    expect(pageCounts).toEqual([3]);
    expect(result.metadata).toMatchObject({ pageCount: 3, title: 'Cell Biology', author: 'Ada Lovelace' });
    expect(result.segments.map((s) => [s.page, s.text])).toEqual([
      [1, 'Mitochondria make energy.'],
      [2, 'Ribosomes build proteins.'],
      [3, 'Lysosomes digest waste.'],
    ]);
    const pages = result.metadata.pages as { page: number; offset: number; length: number }[];
    expect(result.text.slice(pages[1]!.offset, pages[1]!.offset + pages[1]!.length)).toBe('Ribosomes build proteins.');
  });

  it('refuses a password-protected PDF as ENCRYPTED', async () => {
    const pdf = await makePdf(['Top secret page.'], { userPassword: 'hunter2' });
    await expect(extract('encrypted', pdf)).rejects.toMatchObject({ code: 'ENCRYPTED' });
  });

  it('reads a PDF encrypted with an owner password only, as any viewer does, and says it was encrypted', async () => {
    const pdf = await makePdf(['Anyone may read this.'], { ownerPassword: 'owner-only' });
    const { result } = await extract('owner-only', pdf);
    expect(result.text).toBe('Anyone may read this.');
    expect(result.metadata.encrypted).toBe(true);
    expect((await extract('plain', await makePdf(['Plain.']))).result.metadata.encrypted).toBeUndefined();
  });

  it('refuses a damaged PDF as CORRUPT', async () => {
    const whole = await makePdf(['A page that will be cut away.']);
    const damaged = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20), Buffer.from('%%EOF\n')]);
    await expect(extract('damaged', damaged)).rejects.toMatchObject({ code: 'CORRUPT' });
    await expect(extract('truncated', whole.subarray(0, 64))).rejects.toMatchObject({ code: 'CORRUPT' });
  });

  it('keeps embedded pictures with their page number and skips decoration', async () => {
    const pdf = await pdfWithPictures(3, [
      { page: 2, width: 300, height: 200 },
      { page: 2, width: 20, height: 20 },
      { page: 3, width: 120, height: 90 },
    ]);
    const { result, outputDir } = await extract('pictures', pdf, true);
    expect(result.images.map(({ page, width, height, role }) => ({ page, width, height, role }))).toEqual([
      { page: 2, width: 300, height: 200, role: 'extracted' },
      { page: 3, width: 120, height: 90, role: 'extracted' },
    ]);
    for (const image of result.images)
      expect((await fs.stat(path.join(outputDir, image.file))).size).toBeGreaterThan(0);
  });

  it('extracts no pictures unless asked', async () => {
    const pdf = await pdfWithPictures(1, [{ page: 1, width: 300, height: 200 }]);
    expect((await extract('no-pictures', pdf)).result.images).toEqual([]);
  });

  it("keeps the pictures' colours as they are", async () => {
    const pdf = await pdfWithPictures(1, [{ page: 1, width: 300, height: 200 }]);
    const { result, outputDir } = await extract('colours', pdf, true);
    const { data } = await sharp(path.join(outputDir, result.images[0]!.file))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // #3366cc, give or take WebP's rounding.
    expect(Math.abs(data[0]! - 0x33)).toBeLessThan(8);
    expect(Math.abs(data[2]! - 0xcc)).toBeLessThan(8);
  });

  it('keeps the text and the pictures made so far when the images run out of time, and says so', async () => {
    const pdf = await pdfWithPictures(2, [
      { page: 1, width: 300, height: 200 },
      { page: 2, width: 300, height: 200 },
    ]);
    const partial: unknown[] = [];
    const { result } = await extract('images-deadline', pdf, true, {
      imagesDeadline: () => Date.now() - 1,
      onText: (text) => partial.push(text),
    });
    expect(result.images).toEqual([]);
    expect(result.metadata.imagesCutShort).toMatchObject({ reason: 'TIMEOUT', imagesKept: 0 });
    expect(result.metadata.pageCount).toBe(2);
    expect(partial).toHaveLength(1);
  });
});

describe('PDFium and pdf.js together', () => {
  it('hands a file PDFium refuses to pdf.js, and says which engine read it', async () => {
    engine = 'pdfium';
    const pdf = await makePdf(['Read by the second engine.']);
    // 2 KB of junk before the header: PDFium looks for it in the first kilobyte only, pdf.js further.
    const shifted = Buffer.concat([Buffer.alloc(2048, 'x'), pdf]);
    const { result } = await extract('fallback', shifted);
    expect(result.text).toBe('Read by the second engine.');
    expect(result.metadata.textEngine).toBe('pdf.js');
    expect((await extract('no-fallback', pdf)).result.metadata.textEngine).toBe('pdfium');
  });

  it('renders a page to a bitmap at the scale asked (for OCR of pages without text)', async () => {
    const pdf = await PdfiumPdf.open(new Uint8Array(await makePdf(['Rendered words.'])));
    try {
      const page = pdf.renderPage(0, 2);
      expect({ width: page.width, height: page.height, channels: page.channels }).toEqual({
        width: 1224,
        height: 1584,
        channels: 4,
      });
      // White paper with dark print on it.
      expect(page.data.subarray(0, 4)).toEqual(Buffer.from([255, 255, 255, 255]));
      expect(page.data.some((byte, i) => i % 4 !== 3 && byte < 100)).toBe(true);
    } finally {
      pdf.close();
    }
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, pdfWithPictures } from '@quire/testkit';
import { extractPdf } from './pdf.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pdf-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function extract(name: string, body: Buffer, extractImages = false) {
  const outputDir = path.join(dir, name);
  await fs.mkdir(outputDir);
  const input = path.join(dir, `${name}.pdf`);
  await fs.writeFile(input, body);
  const pageCounts: number[] = [];
  const result = await extractPdf(input, { extractImages, outputDir, onPageCount: (n) => pageCounts.push(n) });
  return { result, outputDir, pageCounts };
}

describe('extractPdf', () => {
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
});

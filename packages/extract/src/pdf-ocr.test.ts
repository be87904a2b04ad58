import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankScan, imageHeavyPdf, scannedPdf, scanOf, wordF1 } from '@quire/testkit';
import { createPdfExtractor } from './pdf.ts';
import { pageOcr, type PdfOcrSettings } from './pdf-ocr.ts';
import type { TextSegment } from './types.ts';

const SETTINGS: PdfOcrSettings = { ocrLanguages: ['eng'], ocrMaxPages: 50, ocrPageTimeoutMs: 60_000, ocrDpi: 300 };

const SCANNED_LINES = [
  'Photosynthesis turns light into sugar',
  'Plants take carbon dioxide from the air',
  'and release oxygen through their leaves',
  'Chlorophyll absorbs red and blue light',
];
const FRENCH_LINES = [
  "L'élève a déjà révisé où le garçon était",
  'Le château médiéval près de la forêt',
  'Une journée agréable à la bibliothèque',
  'Les étés très chauds font mûrir les pêches',
];

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pdf-ocr-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function extract(name: string, pdf: Buffer, settings: Partial<PdfOcrSettings> = {}) {
  const outputDir = path.join(dir, name);
  await fs.mkdir(outputDir);
  const input = path.join(dir, `${name}.pdf`);
  await fs.writeFile(input, pdf);
  const progress: number[] = [];
  const result = await createPdfExtractor('pdfium', pageOcr({ ...SETTINGS, ...settings }))(input, {
    extractImages: false,
    outputDir,
    onProgress: (p) => progress.push(p),
  });
  return { ...result, progress };
}

const pageText = (segments: TextSegment[], page: number) => segments.find((s) => s.page === page)?.text ?? '';

describe('OCR of PDF pages without a text layer', () => {
  it('reads a scanned page with OCR and leaves the text page to its text layer', async () => {
    const textPage = 'The water cycle moves water between the oceans, the air and the land.';
    const pdf = await scannedPdf([textPage, await scanOf(SCANNED_LINES)]);
    const result = await extract('mixed', pdf);

    expect(result.segments.map(({ page, source }) => ({ page, source }))).toEqual([
      { page: 1, source: 'text-layer' },
      { page: 2, source: 'ocr' },
    ]);
    expect(pageText(result.segments, 1)).toBe(textPage);
    expect(wordF1(pageText(result.segments, 2), SCANNED_LINES.join(' '))).toBeGreaterThanOrEqual(0.9);
    expect(result.segments[1]!.confidence).toBeGreaterThan(60);
    expect(result.metadata.ocr).toMatchObject({ engine: 'tesseract', language: 'eng', pages: 1 });
    expect(result.metadata.textless).toBeUndefined();
    // The page offsets describe the rebuilt text.
    const pages = result.metadata.pages as { page: number; offset: number; length: number; ocr?: boolean }[];
    expect(pages.map((p) => result.text.slice(p.offset, p.offset + p.length))).toEqual([
      textPage,
      pageText(result.segments, 2),
    ]);
    expect(pages.map((p) => p.ocr ?? false)).toEqual([false, true]);
    // Progress goes on while pages are recognized.
    expect(result.progress.at(-1)).toBeGreaterThanOrEqual(90);
  });

  it('leaves a PDF with a text layer on every page alone', async () => {
    const result = await extract('text-only', await scannedPdf(['First page of notes.', 'Second page of notes.']));
    expect(result.metadata.ocr).toBeUndefined();
    expect(result.segments.every((s) => s.source === undefined)).toBe(true);
  });

  it('keeps the few words of a text layer over a picture when OCR reads no more there', async () => {
    // "Page 1" over a white picture: a candidate for OCR, which finds nothing the text layer lacks.
    const result = await extract('caption', await imageHeavyPdf(1, 400));
    expect(result.metadata.ocr).toMatchObject({ pages: 1 });
    expect(result.text).toBe('Page 1');
    // The text layer's element keeps its structure fields (kind, box) beside these.
    expect(result.segments).toMatchObject([{ text: 'Page 1', page: 1, source: 'text-layer' }]);
    expect(result.segments).toHaveLength(1);
  });

  it('reads French with fra, and badly without it', async () => {
    const pdf = await scannedPdf([await scanOf(FRENCH_LINES)]);
    const want = FRENCH_LINES.join(' ');
    const french = await extract('fra', pdf, { ocrLanguages: ['fra'] });
    const english = await extract('eng', pdf, { ocrLanguages: ['eng'] });
    expect(french.metadata.ocr).toMatchObject({ language: 'fra', pages: 1 });
    expect(wordF1(french.text, want)).toBeGreaterThanOrEqual(0.9);
    expect(wordF1(english.text, want)).toBeLessThan(0.7);
  });

  it('stops at its page budget and says how many pages it left unread', async () => {
    const blank = await blankScan();
    const result = await extract('budget', await scannedPdf(Array.from({ length: 8 }, () => blank)), {
      ocrMaxPages: 3,
    });
    expect(result.text).toBe('');
    expect(result.metadata).toMatchObject({ textless: true, ocr: { pages: 3, skippedPages: 5 } });
  });

  it('gives up a page that overruns its budget and goes on with a new engine', async () => {
    const scan = await scanOf(SCANNED_LINES);
    const result = await extract(
      'page-timeout',
      await scannedPdf(['A page with its own text layer here.', scan, scan]),
      {
        ocrPageTimeoutMs: 1,
      },
    );
    expect(result.text).toBe('A page with its own text layer here.');
    expect(result.metadata.ocr).toMatchObject({
      pages: 0,
      skipped: [
        { page: 2, reason: 'page-timeout' },
        { page: 3, reason: 'page-timeout' },
      ],
    });
  });

  it("starts no page once the sandbox's time allowance is nearly spent", async () => {
    const blank = await blankScan();
    const result = await extract('time', await scannedPdf([blank, blank]), {
      ocrTimeBudget: { baseMs: 1_000, perPageMs: 0, maxMs: 1_000 },
    });
    expect(result.metadata).toMatchObject({
      textless: true,
      ocr: {
        pages: 0,
        skippedPages: 2,
        skipped: [
          { page: 1, reason: 'time-budget' },
          { page: 2, reason: 'time-budget' },
        ],
      },
    });
  });
});

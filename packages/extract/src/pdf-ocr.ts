import fs from 'node:fs/promises';
import { PDFiumLibrary, type PDFiumDocument } from '@hyzyla/pdfium';
import sharp from 'sharp';
import { TEXT_SHARE_BEFORE_OCR, textPhaseEnd } from './pdf-progress.ts';
import { openRecognizer, type OcrSettings, type Recognizer } from './ocr.ts';
import type { ExtractOptions, ExtractResult, TextSegment } from './types.ts';
import { countWords, normalizeText } from './words.ts';

/** Settings of OCR for PDF pages without a text layer (`config.extraction.ocr`). */
export interface PdfOcrSettings extends OcrSettings {
  /** Page-count budget: at most this many pages of one document are recognized; 0 turns page OCR off. */
  ocrMaxPages: number;
  /** Per-page budget: a page whose recognition takes longer is given up (and the engine restarted). */
  ocrPageTimeoutMs: number;
  /** Resolution pages are rendered at for tesseract. */
  ocrDpi: number;
  /** The sandbox's time allowance (base, per page, ceiling), so OCR stops in time with what it has. */
  ocrTimeBudget?: { baseMs: number; perPageMs: number; maxMs: number };
}

/** A text layer with fewer letters and digits than this on a page that shows an image is a scan's, not the page's. */
export const MIN_TEXT_LAYER_CHARS = 20;
/** Longest edge of a rendered page: an A0 poster at 300 dpi would be 14,000 px for no better reading. */
const MAX_RENDER_EDGE = 4200;
/** The share of the sandbox's time OCR may use, leaving the rest for storing the result. */
const TIME_SHARE = 0.85;
/** Less time than this left in the sandbox's allowance, and no page is started. */
const MIN_PAGE_MS = 1_000;

interface PageEntry {
  page: number;
  offset: number;
  length: number;
  wordCount: number;
}

interface PageReading {
  text: string;
  confidence: number;
}

type Skipped = {
  page: number;
  reason: 'page-budget' | 'time-budget' | 'page-timeout' | 'render-failed' | 'ocr-failed';
};

/** Replaces, in a PDF's result, the text of pages without a text layer by what OCR reads on them. */
export type TextlessPageReader = (
  inputPath: string,
  result: ExtractResult,
  options: ExtractOptions,
) => Promise<ExtractResult>;

/**
 * Reads the pages of a PDF that have no text layer (scans, photos of pages) with OCR, once the PDF extractor
 * has taken the text layer of every page and before it turns to the images: a mixed PDF keeps the text of its
 * text pages and gets OCR only where there is none, and the text is whole before the images' share of the time
 * starts. Undefined when OCR of pages is off.
 */
export function pageOcr(settings: PdfOcrSettings): TextlessPageReader | undefined {
  if (settings.ocrMaxPages === 0 || settings.ocrLanguages.length === 0) return undefined;
  return async (inputPath, result, options) => {
    const started = Date.now();
    const pages = result.metadata.pages as PageEntry[] | undefined;
    if (!pages?.length) return result;
    const textOf = (entry: PageEntry) => result.text.slice(entry.offset, entry.offset + entry.length);
    const sparse = pages.filter((entry) => letterCount(textOf(entry)) < MIN_TEXT_LAYER_CHARS);
    if (sparse.length === 0) return result;

    const library = await PDFiumLibrary.init();
    try {
      // pdf.js read it; a file PDFium cannot open keeps that text rather than failing as a whole.
      const document = await library.loadDocument(await fs.readFile(inputPath)).catch(() => undefined);
      if (!document) return result;
      try {
        const scanned = sparse.filter((entry) => showsImage(document, entry.page));
        if (scanned.length === 0) return result;
        const allowedMs = settings.ocrTimeBudget
          ? TIME_SHARE *
            Math.min(
              settings.ocrTimeBudget.maxMs,
              settings.ocrTimeBudget.baseMs + pages.length * settings.ocrTimeBudget.perPageMs,
            )
          : Number.POSITIVE_INFINITY;
        const readings = new Map<number, PageReading>();
        const skipped: Skipped[] = [];
        let recognizer: Recognizer | undefined;
        try {
          for (const [index, entry] of scanned.entries()) {
            if (index >= settings.ocrMaxPages) {
              skipped.push({ page: entry.page, reason: 'page-budget' });
            } else if (allowedMs - (Date.now() - started) < MIN_PAGE_MS) {
              skipped.push({ page: entry.page, reason: 'time-budget' });
            } else {
              const image = await renderPage(document, entry.page, settings.ocrDpi).catch(() => undefined);
              if (!image) {
                skipped.push({ page: entry.page, reason: 'render-failed' });
              } else {
                recognizer ??= await openRecognizer(settings);
                const pageMs = Math.min(settings.ocrPageTimeoutMs, allowedMs - (Date.now() - started));
                const work = recognizer.recognize(image);
                const reading = await withTimeout(work, pageMs).catch(() => 'failed' as const);
                if (reading && reading !== 'failed') {
                  readings.set(entry.page, { text: normalizeText(reading.text), confidence: reading.confidence });
                } else {
                  // The engine is still busy with the page, or broken by it: only a new one can take the next.
                  work.catch(() => undefined);
                  await recognizer.discard().catch(() => undefined);
                  recognizer = undefined;
                  skipped.push({ page: entry.page, reason: reading === 'failed' ? 'ocr-failed' : 'page-timeout' });
                }
              }
            }
            options.onProgress?.(
              Math.round(
                textPhaseEnd(options) *
                  (TEXT_SHARE_BEFORE_OCR + ((index + 1) / scanned.length) * (1 - TEXT_SHARE_BEFORE_OCR)),
              ),
            );
          }
        } finally {
          await recognizer?.close().catch(() => undefined);
        }
        return merge(result, pages, textOf, readings, skipped, settings);
      } finally {
        document.destroy();
      }
    } finally {
      library.destroy();
    }
  };
}

/** At least twice the text layer's words and ten more; any words at all where the layer had none. */
function readsMore(ocrText: string, layerText: string): boolean {
  const layerWords = countWords(layerText);
  const ocrWords = countWords(ocrText);
  return layerWords === 0 ? ocrWords > 0 : ocrWords >= 2 * layerWords + 10;
}

function letterCount(text: string): number {
  return text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
}

function showsImage(document: PDFiumDocument, pageNumber: number): boolean {
  try {
    for (const object of document.getPage(pageNumber - 1).objects()) if (object.type === 'image') return true;
  } catch {
    // a page PDFium cannot open is not read twice
  }
  return false;
}

async function renderPage(document: PDFiumDocument, pageNumber: number, dpi: number): Promise<Buffer> {
  const page = document.getPage(pageNumber - 1);
  const { originalWidth, originalHeight } = page.getOriginalSize();
  const scale = Math.min(dpi / 72, MAX_RENDER_EDGE / Math.max(originalWidth, originalHeight, 1));
  const rendered = await page.render({
    scale,
    render: async ({ data, width, height }) =>
      // BGRA as RGBA: the channels swap, but grey print on a white page stays grey.
      sharp(data, { raw: { width, height, channels: 4 } })
        .flatten({ background: '#ffffff' })
        .grayscale()
        .png({ compressionLevel: 1 })
        .toBuffer(),
  });
  return Buffer.from(rendered.data);
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The result with each recognized page's text in place of its text layer, the text and offsets rebuilt. */
function merge(
  result: ExtractResult,
  pages: PageEntry[],
  textOf: (entry: PageEntry) => string,
  readings: Map<number, PageReading>,
  skipped: Skipped[],
  settings: PdfOcrSettings,
): ExtractResult {
  let text = '';
  const segments: TextSegment[] = [];
  const entries: (PageEntry & { ocr?: true; confidence?: number })[] = [];
  for (const entry of pages) {
    const read = readings.get(entry.page);
    const layer = textOf(entry);
    // OCR only adds: a page whose few words of text layer (a caption, a page number over a photo) OCR does not
    // clearly outnumber keeps them, and so does a scan OCR reads nothing on.
    const reading = read && readsMore(read.text, layer) ? read : undefined;
    const pageText = reading ? reading.text : layer;
    if (text && pageText) text += '\n\n';
    entries.push({
      page: entry.page,
      offset: text.length,
      length: pageText.length,
      wordCount: countWords(pageText),
      ...(reading ? { ocr: true, confidence: reading.confidence } : {}),
    });
    text += pageText;
    if (pageText && !reading) {
      // The text layer's elements (headings, list items, paragraphs) stand as they were.
      const elements = result.segments.filter((segment) => segment.page === entry.page);
      segments.push(
        ...(elements.length ? elements : [{ text: pageText, page: entry.page }]).map((element) => ({
          ...element,
          source: 'text-layer' as const,
        })),
      );
    } else if (pageText) {
      segments.push({
        text: pageText,
        page: entry.page,
        source: reading ? 'ocr' : 'text-layer',
        ...(reading ? { confidence: reading.confidence } : {}),
      });
    }
  }
  const { textless: _textless, ...metadata } = result.metadata;
  const confidences = [...readings.values()].map((r) => r.confidence);
  return {
    ...result,
    text,
    segments,
    metadata: {
      ...metadata,
      pages: entries,
      ocr: {
        engine: 'tesseract',
        language: settings.ocrLanguages.join('+'),
        pages: readings.size,
        ...(confidences.length
          ? { confidence: Math.round(confidences.reduce((a, b) => a + b, 0) / confidences.length) }
          : {}),
        ...(skipped.length ? { skippedPages: skipped.length, skipped: skipped.slice(0, 100) } : {}),
      },
      ...(text.length === 0 ? { textless: true } : {}),
    },
  };
}

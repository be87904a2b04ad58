import fs from 'node:fs/promises';
import path from 'node:path';
import type { PDFParse } from 'pdf-parse';
import {
  MAX_EXTRACTED_IMAGES,
  MAX_INPUT_PIXELS,
  MIN_IMAGE_EDGE,
  saveAsWebp,
  saveBgrBitmapAsWebp,
} from './image-files.ts';
import { joinBrokenLines } from './pdf-hyphens.ts';
import { layoutElements } from './pdf-layout.ts';
import type { LayoutPage } from './pdf-lines.ts';
import { readsByTags, taggedElements } from './pdf-tagged-layout.ts';
import type { TextlessPageReader } from './pdf-ocr.ts';
import { TEXT_SHARE_BEFORE_OCR, textPhaseEnd } from './pdf-progress.ts';
import { isWasmAbort, loadPdfium, PdfiumPdf, PdfiumRefusal } from './pdfium.ts';
import {
  ExtractError,
  type ExtractedImage,
  type ExtractOptions,
  type ExtractResult,
  type Extractor,
  type ImagesCutShort,
  type TextSegment,
} from './types.ts';
import { countWords, normalizeText } from './words.ts';

export type PdfEngine = 'pdfium' | 'pdf-parse';

const PAGES_PER_BATCH = 20;

/** Writes one image found in the PDF to `outputPath`; undefined when it is too small or does not decode. */
type ImageSaver = (outputPath: string) => Promise<{ width: number; height: number } | undefined>;

/** One engine's view of an open PDF, page by page: all the extraction needs. */
interface OpenPdf {
  engine: 'pdfium' | 'pdf.js';
  pageCount: number;
  /** Title, author... pdfVersion, encrypted: the document's own fields of `metadata`. */
  documentFields: Record<string, unknown>;
  /** The raw text layer of pages `first`..`last` (1-based), in order. */
  pageTexts(first: number, last: number): Promise<string[]>;
  /** Pages `first`..`last` (1-based) as lines with their boxes and fonts, where the engine gives them. */
  pageLines?(first: number, last: number): Promise<LayoutPage[]>;
  pageImages(page: number): Promise<ImageSaver[]>;
  close(): Promise<void>;
}

/**
 * PDF text per page (with each page's offset in the whole text) and, when asked, the pictures on each page.
 * `pdfium` reads with PDFium (WebAssembly), and hands a file PDFium refuses to pdf.js; `pdf-parse` reads with
 * pdf.js alone.
 */
export function createPdfExtractor(engine: PdfEngine, readTextless?: TextlessPageReader): Extractor {
  return async (inputPath, options) => {
    const read = readTextless && ((result: ExtractResult) => readTextless(inputPath, result, options));
    const data = new Uint8Array(await fs.readFile(inputPath));
    if (engine === 'pdfium') {
      const pdf = await openWithPdfium(data);
      // A file PDFium will not open, or drives into a fatal error, may still be one pdf.js reads.
      if (pdf) {
        const result = await extractFrom(pdf, options, read).catch((err: unknown) => {
          if (isWasmAbort(err)) return undefined;
          throw err;
        });
        if (result) return result;
      }
    }
    return extractFrom(await openWithPdfJs(data), options, read);
  };
}

export const extractPdf: Extractor = createPdfExtractor('pdfium');

/** Loads the engine ahead of the first file, for a process that will serve many. */
export async function warmPdfEngine(engine: PdfEngine): Promise<void> {
  await (engine === 'pdfium' ? loadPdfium() : loadPdfParse());
}

async function extractFrom(
  pdf: OpenPdf,
  options: ExtractOptions,
  readTextless?: (result: ExtractResult) => Promise<ExtractResult>,
): Promise<ExtractResult> {
  try {
    const { pageCount } = pdf;
    options.onPageCount?.(pageCount);
    const textShare = textPhaseEnd(options) * (readTextless ? TEXT_SHARE_BEFORE_OCR : 1);
    const layout: LayoutPage[] = [];
    const rawTexts: string[] = [];
    for (let first = 1; first <= pageCount; first += PAGES_PER_BATCH) {
      const last = Math.min(pageCount, first + PAGES_PER_BATCH - 1);
      if (pdf.pageLines) layout.push(...(await pdf.pageLines(first, last)));
      else rawTexts.push(...(await pdf.pageTexts(first, last)));
      options.onProgress?.(Math.round((last / pageCount) * textShare));
    }
    // With lines and their fonts, the page's elements (from its structure tree where its tags carry one); with
    // text alone (pdf.js), the page is one paragraph.
    const elements: TextSegment[] = pdf.pageLines
      ? readsByTags(layout)
        ? taggedElements(layout)
        : layoutElements(layout)
      : rawTexts.flatMap((raw, i) => {
          const pageText = normalizeText(joinBrokenLines(raw.replace(/\r\n?/g, '\n')));
          return pageText ? [{ text: pageText, page: i + 1 }] : [];
        });
    // The lines are no longer needed: a long book's go before the text is built and sent.
    layout.length = 0;
    const segments: TextSegment[] = [];
    const pages: { page: number; offset: number; length: number; wordCount: number }[] = [];
    let text = '';
    let next = 0;
    for (let page = 1; page <= pageCount; page++) {
      const start = next;
      while (next < elements.length && elements[next]!.page === page) next++;
      const onPage = elements.slice(start, next);
      const pageText = onPage.map((element) => element.text).join('\n');
      if (text && pageText) text += '\n\n';
      pages.push({ page, offset: text.length, length: pageText.length, wordCount: countWords(pageText) });
      text += pageText;
      segments.push(...onPage);
    }
    const metadata: Record<string, unknown> = {
      pageCount,
      pages,
      ...pdf.documentFields,
      textEngine: pdf.engine,
      ...(text.length === 0 && pageCount > 0 ? { textless: true } : {}),
    };
    const layer: ExtractResult = { text, segments, images: [], metadata };
    const read = readTextless ? await readTextless(layer) : layer;
    if (!options.extractImages) return read;

    options.onText?.(read);
    const { images, cutShort } = await extractImages(pdf, options);
    return { ...read, images, metadata: { ...read.metadata, ...(cutShort ? { imagesCutShort: cutShort } : {}) } };
  } finally {
    await pdf.close();
  }
}

/** Page by page, each image saved before the next is decoded, stopping when the images' time is up. */
async function extractImages(
  pdf: OpenPdf,
  options: ExtractOptions,
): Promise<{ images: ExtractedImage[]; cutShort?: ImagesCutShort }> {
  const images: ExtractedImage[] = [];
  const timeUp = () => Date.now() > (options.imagesDeadline?.() ?? Number.POSITIVE_INFINITY);
  const cutShort = (): ImagesCutShort => ({
    reason: 'TIMEOUT',
    message: 'Image extraction ran out of its share of the time budget',
    imagesKept: images.length,
  });
  for (let page = 1; page <= pdf.pageCount && images.length < MAX_EXTRACTED_IMAGES; page++) {
    if (timeUp()) return { images, cutShort: cutShort() };
    // A page whose images cannot be decoded keeps its text; its pictures are skipped.
    const savers = await pdf.pageImages(page).catch(() => [] as ImageSaver[]);
    for (const save of savers) {
      if (images.length >= MAX_EXTRACTED_IMAGES) break;
      if (timeUp()) return { images, cutShort: cutShort() };
      const file = `page-${page}-${images.length + 1}.webp`;
      const output = await save(path.join(options.outputDir, file));
      if (!output) continue;
      const image: ExtractedImage = { file, role: 'extracted', page, ...output, format: 'webp' };
      images.push(image);
      options.onImage?.(image);
    }
    options.onProgress?.(60 + Math.round((page / pdf.pageCount) * 35));
  }
  return { images };
}

/** The file in PDFium, or undefined when PDFium refuses it (then pdf.js gets its turn). */
async function openWithPdfium(data: Uint8Array): Promise<OpenPdf | undefined> {
  let pdf: PdfiumPdf;
  try {
    pdf = await PdfiumPdf.open(data);
  } catch (err) {
    if (err instanceof PdfiumRefusal) return undefined;
    throw err;
  }
  return {
    engine: 'pdfium',
    pageCount: pdf.pageCount,
    documentFields: {
      ...pdf.info(),
      ...(pdf.version() ? { pdfVersion: pdf.version() } : {}),
      // Encrypted with an empty user password: readable without one, so it is extracted, and said so.
      ...(pdf.encrypted ? { encrypted: true } : {}),
    },
    pageTexts: async (first, last) => {
      const texts: string[] = [];
      for (let page = first; page <= last; page++) texts.push(pdf.pageText(page - 1));
      return texts;
    },
    pageLines: async (first, last) => {
      const pages: LayoutPage[] = [];
      for (let page = first; page <= last; page++) pages.push({ page, ...pdf.pageLines(page - 1) });
      return pages;
    },
    pageImages: async (page) =>
      pdf
        .pageImages(page - 1, MIN_IMAGE_EDGE, MAX_INPUT_PIXELS)
        .map((bitmap) => (outputPath: string) => saveBgrBitmapAsWebp(bitmap, outputPath)),
    close: async () => pdf.close(),
  };
}

// pdf.js's legacy build (the one pdf-parse loads) replaces Array.prototype.push with a core-js polyfill on
// V8 before 12.1 (Node 20), for a case pdf.js never meets: push on an array whose length is read-only. The
// polyfill makes text extraction about 15% slower, so the native one is taken before pdf.js loads and put back.
const nativePush = Array.prototype.push;

function restoreNativePush(): void {
  if (Array.prototype.push !== nativePush)
    Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, configurable: true });
}

let pdfParse: Promise<typeof import('pdf-parse')> | undefined;

/** Loaded on first use, after `nativePush` is taken; sandboxes that never need pdf.js never load it. */
function loadPdfParse(): Promise<typeof import('pdf-parse')> {
  pdfParse ??= import('pdf-parse');
  return pdfParse;
}

async function openWithPdfJs(data: Uint8Array): Promise<OpenPdf> {
  const parser: PDFParse = new (await loadPdfParse()).PDFParse({ data, verbosity: 0 });
  const close = () =>
    parser.destroy().catch((err: Error) => process.emitWarning(`pdf.js did not clean up: ${err.message}`));
  // Opening the first document loads pdf.js's worker code, which installs the polyfill too.
  const info = await parser
    .getInfo()
    .catch(async (err: unknown) => {
      await close();
      return classify(err);
    })
    .finally(restoreNativePush);
  const docInfo = (info.info ?? {}) as Record<string, unknown>;
  return {
    engine: 'pdf.js',
    pageCount: info.total,
    documentFields: {
      ...pickStrings(docInfo, {
        Title: 'title',
        Author: 'author',
        Subject: 'subject',
        Creator: 'creator',
        Producer: 'producer',
      }),
      ...(typeof docInfo.PDFFormatVersion === 'string' ? { pdfVersion: docInfo.PDFFormatVersion } : {}),
      ...(typeof docInfo.EncryptFilterName === 'string' ? { encrypted: true } : {}),
    },
    pageTexts: async (first, last) => {
      const batch = await parser.getText({ first, last, pageJoiner: '' }).catch(classify);
      return batch.pages.map((p) => p.text);
    },
    pageImages: async (page) => {
      // One page at a time: decoded bitmaps are large, and only this page's need to be alive.
      const result = await parser.getImage({
        partial: [page],
        imageThreshold: MIN_IMAGE_EDGE - 1,
        imageBuffer: true,
        imageDataUrl: false,
      });
      return (result.pages[0]?.images ?? []).map(
        (embedded) => (outputPath: string) => saveAsWebp(embedded.data, outputPath),
      );
    },
    close: async () => void (await close()),
  };
}

function pickStrings(source: Record<string, unknown>, names: Record<string, string>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [from, to] of Object.entries(names)) {
    const value = source[from];
    if (typeof value === 'string' && value.trim()) picked[to] = value.trim();
  }
  return picked;
}

function classify(err: unknown): never {
  const name = (err as Error)?.name ?? '';
  const message = (err as Error)?.message ?? String(err);
  if (name === 'PasswordException' || /password/i.test(message)) {
    throw new ExtractError('ENCRYPTED', 'The PDF is password-protected');
  }
  throw new ExtractError('CORRUPT', `The PDF could not be read: ${message}`);
}

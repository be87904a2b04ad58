import fs from 'node:fs/promises';
import path from 'node:path';
import type { PDFParse } from 'pdf-parse';
import { MAX_EXTRACTED_IMAGES, MIN_IMAGE_EDGE, saveAsWebp } from './image-files.ts';
import { ExtractError, type ExtractedImage, type Extractor, type TextSegment } from './types.ts';
import { countWords, normalizeText } from './words.ts';

const PAGES_PER_BATCH = 20;

// pdf.js's legacy build (the one pdf-parse loads) replaces Array.prototype.push with a core-js polyfill on
// V8 before 12.1 (Node 20), for a case pdf.js never meets: push on an array whose length is read-only. The
// polyfill makes text extraction about 15% slower, so the native one is taken before pdf.js loads and put back.
const nativePush = Array.prototype.push;

function restoreNativePush(): void {
  if (Array.prototype.push !== nativePush)
    Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, configurable: true });
}

let pdfParse: Promise<typeof import('pdf-parse')> | undefined;

/** Loaded on first use, after `nativePush` is taken; sandboxes of other types never load pdf.js at all. */
function loadPdfParse(): Promise<typeof import('pdf-parse')> {
  pdfParse ??= import('pdf-parse');
  return pdfParse;
}

export const extractPdf: Extractor = async (inputPath, options) => {
  const data = new Uint8Array(await fs.readFile(inputPath));
  const parser = new (await loadPdfParse()).PDFParse({ data, verbosity: 0 });
  try {
    // Opening the first document loads pdf.js's worker code, which installs the polyfill too.
    const info = await parser.getInfo().catch(classify).finally(restoreNativePush);
    const pageCount = info.total;
    options.onPageCount?.(pageCount);

    const segments: TextSegment[] = [];
    const pages: { page: number; offset: number; length: number; wordCount: number }[] = [];
    let text = '';
    for (let first = 1; first <= pageCount; first += PAGES_PER_BATCH) {
      const last = Math.min(pageCount, first + PAGES_PER_BATCH - 1);
      const batch = await parser.getText({ first, last, pageJoiner: '' }).catch(classify);
      for (const { num, text: raw } of batch.pages) {
        const pageText = normalizeText(raw);
        if (text && pageText) text += '\n\n';
        pages.push({ page: num, offset: text.length, length: pageText.length, wordCount: countWords(pageText) });
        text += pageText;
        if (pageText) segments.push({ text: pageText, page: num });
      }
      options.onProgress?.(Math.round((last / pageCount) * (options.extractImages ? 60 : 95)));
    }

    const images = options.extractImages
      ? await extractPageImages(parser, pageCount, options.outputDir, options.onProgress)
      : [];

    const docInfo = (info.info ?? {}) as Record<string, unknown>;
    return {
      text,
      segments,
      images,
      metadata: {
        pageCount,
        pages,
        ...pickStrings(docInfo, {
          Title: 'title',
          Author: 'author',
          Subject: 'subject',
          Creator: 'creator',
          Producer: 'producer',
        }),
        ...(typeof docInfo.PDFFormatVersion === 'string' ? { pdfVersion: docInfo.PDFFormatVersion } : {}),
        // Encrypted with an empty user password: readable without one, so it is extracted, and said so.
        ...(typeof docInfo.EncryptFilterName === 'string' ? { encrypted: true } : {}),
        ...(text.length === 0 && pageCount > 0 ? { textless: true } : {}),
      },
    };
  } finally {
    // Runs in the sandbox's child, which exits after one extraction: a failed cleanup is reported on its stderr.
    await parser.destroy().catch((err: Error) => process.emitWarning(`pdf.js did not clean up: ${err.message}`));
  }
};

async function extractPageImages(
  parser: PDFParse,
  pageCount: number,
  outputDir: string,
  onProgress?: (percent: number) => void,
): Promise<ExtractedImage[]> {
  const images: ExtractedImage[] = [];
  for (let page = 1; page <= pageCount && images.length < MAX_EXTRACTED_IMAGES; page++) {
    // One page at a time: decoded bitmaps are large, and only this page's need to be alive.
    const result = await parser
      .getImage({ partial: [page], imageThreshold: MIN_IMAGE_EDGE - 1, imageBuffer: true, imageDataUrl: false })
      // A page whose images pdf.js cannot decode keeps its text; its pictures are skipped.
      .catch(() => undefined);
    for (const embedded of result?.pages[0]?.images ?? []) {
      if (images.length >= MAX_EXTRACTED_IMAGES) break;
      const file = `page-${page}-${images.length + 1}.webp`;
      const output = await saveAsWebp(embedded.data, path.join(outputDir, file));
      if (!output) continue;
      images.push({ file, role: 'extracted', page, width: output.width, height: output.height, format: 'webp' });
    }
    onProgress?.(60 + Math.round((page / pageCount) * 35));
  }
  return images;
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

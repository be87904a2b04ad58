import type { Config } from '@quire/config';
import type { ContentType } from '@quire/extract';
import type { SandboxLimits } from '../sandbox/run-sandboxed.ts';

const MB = 1024 * 1024;
/** Granted per page once the extractor has counted them: a 900-page book is slow for honest reasons. */
export const PER_PAGE_MS = 2_000;
/** Added per page of a PDF while OCR of PDF pages is on: any page may be a scan (about 3 s each here, see docs/operations.md). */
export const OCR_PER_PAGE_MS = 4_000;

/**
 * Time scales with size and page count for documents and images (a 2 MB, 3-page PDF that needs ten minutes
 * is a bomb); audio and video get the whole configured budget because speech-to-text runs near real time.
 */
export function budgetFor(contentType: ContentType, bytes: number, config: Config): SandboxLimits {
  const max = config.extraction.timeoutMs;
  const maxMemoryMb = config.extraction.maxMemoryMb;
  if (contentType === 'audio' || contentType === 'video') return { timeoutMs: max, maxMemoryMb };
  return {
    timeoutMs: Math.min(max, 60_000 + Math.ceil(bytes / MB) * 5_000),
    maxMemoryMb,
    perPageMs: PER_PAGE_MS + (contentType === 'pdf' && config.extraction.ocr.maxPages > 0 ? OCR_PER_PAGE_MS : 0),
    maxTimeoutMs: max,
    // Pictures are extras: once the text is out they may use this share of the budget, and never cost the text.
    imagesShare: config.extraction.imagesShare,
  };
}

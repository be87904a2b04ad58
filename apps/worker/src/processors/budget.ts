import type { Config } from '@quire/config';
import type { ContentType } from '@quire/extract';
import type { SandboxLimits } from '../sandbox/run-sandboxed.ts';

const MB = 1024 * 1024;
/** Granted per page once the extractor has counted them: a 900-page book is slow for honest reasons. */
export const PER_PAGE_MS = 2_000;
/** Added per page of a PDF while OCR of PDF pages is on: any page may be a scan (about 3 s each here, see docs/operations.md). */
export const OCR_PER_PAGE_MS = 4_000;

/**
 * Granted per second of audio or video: speech-to-text runs at about 0.38x real time on one core here, so
 * this leaves room for a machine loaded four times over.
 */
export const MEDIA_MS_PER_SECOND = 1_500;
const MEDIA_BASE_MS = 60_000;

/**
 * Time scales with size and page count for documents and images (a 2 MB, 3-page PDF that needs ten minutes
 * is a bomb), and with the duration ffprobe reads for audio and video, up to MEDIA_TIMEOUT_MAX_MS.
 */
export function budgetFor(
  contentType: ContentType,
  bytes: number,
  config: Config,
  durationSeconds?: number,
): SandboxLimits {
  const max = config.extraction.timeoutMs;
  const maxMemoryMb = config.extraction.maxMemoryMb;
  if (contentType === 'audio' || contentType === 'video')
    return { timeoutMs: mediaBudgetMs(durationSeconds, config), maxMemoryMb };
  return {
    timeoutMs: Math.min(max, 60_000 + Math.ceil(bytes / MB) * 5_000),
    maxMemoryMb,
    perPageMs: PER_PAGE_MS + (contentType === 'pdf' && config.extraction.ocr.maxPages > 0 ? OCR_PER_PAGE_MS : 0),
    maxTimeoutMs: max,
    // Pictures are extras: once the text is out they may use this share of the budget, and never cost the text.
    imagesShare: config.extraction.imagesShare,
  };
}

/** The budget of `durationSeconds` of media (a whole file or one chunk); unknown duration: EXTRACT_TIMEOUT_MS. */
export function mediaBudgetMs(durationSeconds: number | undefined, config: Config): number {
  if (!durationSeconds) return config.extraction.timeoutMs;
  return Math.min(
    config.extraction.mediaTimeoutMaxMs,
    MEDIA_BASE_MS + Math.ceil(durationSeconds * MEDIA_MS_PER_SECOND),
  );
}

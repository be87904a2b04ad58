import type { TextSegment } from './document.ts';

export { SEGMENT_SOURCES, type SegmentSource, type TextSegment } from './document.ts';

export const CONTENT_TYPES = ['text', 'pdf', 'video', 'audio', 'image', 'epub'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const EXTRACT_ERROR_CODES = [
  'UNSUPPORTED',
  'CORRUPT',
  'ENCRYPTED',
  'TOO_LARGE',
  'TIMEOUT',
  'FETCH_FAILED',
  'INTERNAL',
] as const;
export type ExtractErrorCode = (typeof EXTRACT_ERROR_CODES)[number];

/** A failure that belongs to the file, not to the machine: the material ends `error` with this code. */
export class ExtractError extends Error {
  constructor(
    readonly code: ExtractErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractError';
  }
}

export interface ExtractOptions {
  /** Whether to pull embedded images / keyframes out of the file. */
  extractImages: boolean;
  /** An empty directory the extractor may write image files into. */
  outputDir: string;
  /** Called with 0..100 as work advances; may be called often, callers throttle. */
  onProgress?: (percent: number) => void;
  /** Called once the number of pages is known, so the caller can scale the time it allows. */
  onPageCount?: (pages: number) => void;
  /** The address the file was fetched from (URL materials), against which a web page's relative links resolve. */
  sourceUrl?: string;
  /** The file's name as uploaded: tells a Markdown file from plain text, which sniffing cannot. */
  fileName?: string;
  /** The type the file was uploaded or served with (`text/markdown`), beside what its bytes are sniffed as. */
  mimeType?: string;
  /** The charset the bytes were served or uploaded with (a Content-Type's `charset`): it outranks a page's `<meta>`. */
  charset?: string;
  /** Called once the text is out, before any image is pulled (images empty), so a caller can keep it should the images overrun. */
  onText?: (result: ExtractResult) => void;
  /** Called for each image once its file is written. */
  onImage?: (image: ExtractedImage) => void;
  /** When image extraction must stop (epoch ms), asked between images; the result then says they were cut short. */
  imagesDeadline?: () => number;
}

/** In `metadata.imagesCutShort` when image extraction stopped before the end, keeping the text and the images made so far. */
export interface ImagesCutShort {
  reason: 'TIMEOUT';
  message: string;
  imagesKept: number;
}

/** 'extracted': found inside the file; 'preview'/'thumbnail': renditions made of the whole file. */
export type ImageRole = 'extracted' | 'keyframe' | 'preview' | 'thumbnail';

export interface ExtractedImage {
  /** File name inside `outputDir`. */
  file: string;
  role: ImageRole;
  width: number;
  height: number;
  format: string;
  page?: number;
  chapter?: number;
  timestampMs?: number;
}

export interface ExtractResult {
  text: string;
  /** Type-specific metadata (pageCount, title, durationSeconds, ...), JSON-serialisable. */
  metadata: Record<string, unknown>;
  segments: TextSegment[];
  images: ExtractedImage[];
}

export type Extractor = (inputPath: string, options: ExtractOptions) => Promise<ExtractResult>;

import type { ContentType, ExtractedImage, ExtractErrorCode, ExtractorSettings, ExtractResult } from '@quire/extract';

/** What the worker asks of one sandboxed extraction. */
export interface SandboxSpec extends ExtractorSettings {
  contentType: ContentType;
  inputPath: string;
  outputDir: string;
  extractImages: boolean;
  sourceUrl?: string;
}

export type SandboxOutcome =
  { ok: true; result: ExtractResult } | { ok: false; code: ExtractErrorCode; message: string };

/** The outcome plus the child's own peak resident memory during the job (its high-water mark), which polling can miss. */
export type ChildReport = SandboxOutcome & { peakRssMb: number };

/** Parent to child. */
export type ParentMessage =
  | { type: 'run'; spec: SandboxSpec }
  /** Once the text is out: how long the images may take from now. */
  | { type: 'images-budget'; ms: number };

/** Child to parent. */
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'progress'; percent: number }
  | { type: 'pages'; count: number }
  /** The text is out (images still to come): kept should the images overrun their share. */
  | { type: 'text'; result: ExtractResult }
  /** One image written to the job's output folder. */
  | { type: 'image'; image: ExtractedImage }
  | { type: 'done'; report: ChildReport };

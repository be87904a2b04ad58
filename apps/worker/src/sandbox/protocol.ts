import type { ContentType, ExtractErrorCode, ExtractorSettings, ExtractResult } from '@quire/extract';

/** What the worker asks of one sandboxed extraction; written as JSON next to the input. */
export interface SandboxSpec extends ExtractorSettings {
  contentType: ContentType;
  inputPath: string;
  outputDir: string;
  extractImages: boolean;
  sourceUrl?: string;
}

export type SandboxOutcome =
  { ok: true; result: ExtractResult } | { ok: false; code: ExtractErrorCode; message: string };

export type ChildMessage = { type: 'progress'; percent: number } | { type: 'pages'; count: number };

/** RESULT_FILE holds the outcome plus the child's own peak resident memory (its high-water mark), which polling can miss. */
export type ChildReport = SandboxOutcome & { peakRssMb: number };

export const RESULT_FILE = 'result.json';

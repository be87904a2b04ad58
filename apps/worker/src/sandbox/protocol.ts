import type {
  ContentType,
  ExtractedImage,
  ExtractErrorCode,
  ExtractorSettings,
  ExtractResult,
  TextSegment,
} from '@quire/extract';

/**
 * The settings a job decides for itself: the material's OCR languages, the OCR's share of its time budget, no
 * speech-to-text for a recording already transcribed in pieces. The rest of the extractor settings are the
 * deployment's, given to a child once when it starts.
 */
export type JobSettings = Partial<Pick<ExtractorSettings, 'ocrLanguages' | 'ocrTimeBudget' | 'speechEngine'>>;

/** What the worker asks of one sandboxed extraction. */
export interface SandboxSpec {
  contentType: ContentType;
  inputPath: string;
  outputDir: string;
  extractImages: boolean;
  sourceUrl?: string;
  charset?: string;
  /** The original's name and declared type: a Markdown file is told from plain text by them. */
  fileName?: string;
  mimeType?: string;
  jobSettings?: JobSettings;
}

export type SandboxOutcome =
  { ok: true; result: ExtractResult } | { ok: false; code: ExtractErrorCode; message: string };

/** A segment whose text is a slice of the result's text, sent as where it is: that text crosses once, not twice. */
type SegmentRef = Omit<TextSegment, 'text'> & { at: number; length: number };

/** A result as it crosses the channel: a 600-page book's pages would otherwise double its 2 MB of text. */
export type WireResult = Omit<ExtractResult, 'segments'> & { segments: (TextSegment | SegmentRef)[] };

/** The most characters between two segments in the text: a line break, a nested item's indent and its number. */
const MAX_JOIN = 16;

export function packResult(result: ExtractResult): WireResult {
  let from = 0;
  const segments = result.segments.map((segment) => {
    const { text, ...position } = segment;
    // Segments follow one another in the text, joined by a blank line, or a line break and a list item's marker.
    for (let at = from; text && at <= from + MAX_JOIN; at++) {
      if (!result.text.startsWith(text, at)) continue;
      from = at + text.length;
      return { ...position, at, length: text.length };
    }
    return segment;
  });
  return { ...result, segments };
}

export function unpackResult(wire: WireResult): ExtractResult {
  const segments = wire.segments.map((segment): TextSegment => {
    if (!('at' in segment)) return segment;
    const { at, length, ...position } = segment;
    return { text: wire.text.slice(at, at + length), ...position };
  });
  return { ...wire, segments };
}

/** The outcome plus the child's own peak resident memory during the job (its high-water mark), which polling can miss. */
export type ChildReport = SandboxOutcome & { peakRssMb: number };

type WireReport = ({ ok: true; result: WireResult } | { ok: false; code: ExtractErrorCode; message: string }) & {
  peakRssMb: number;
};

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
  | { type: 'text'; result: WireResult }
  /** One image written to the job's output folder. */
  | { type: 'image'; image: ExtractedImage }
  | { type: 'done'; report: WireReport };

import { z } from 'zod';
import { ELEMENT_KINDS, SEGMENT_SOURCES, type ContentType, type TextSegment } from '@quire/extract';

const tableCellSchema = z
  .object({
    text: z.string(),
    header: z.boolean().optional().meta({ description: 'A header cell (`th`, a header row)' }),
    rowSpan: z.number().int().optional(),
    colSpan: z.number().int().optional(),
  })
  .meta({ id: 'TableCell' });

/** One stretch of a material's text with its position, as `/text?format=json` serves it. */
export const textSegmentSchema = z
  .object({
    text: z.string(),
    offset: z.number().int().meta({ description: 'Where `text` starts in the whole text (UTF-16 code units)' }),
    page: z.number().int().optional(),
    chapter: z.number().int().optional(),
    startMs: z.number().optional(),
    endMs: z.number().optional(),
    source: z.enum(SEGMENT_SOURCES).meta({
      description:
        '`text-layer`: the file’s own text; `ocr`: read from an image of the page; `transcript`: speech-to-text',
    }),
    confidence: z.number().optional().meta({ description: 'OCR confidence of the page or image, 0..100' }),
    kind: z
      .enum(ELEMENT_KINDS)
      .optional()
      .meta({
        description:
          'What the segment is in the document: `heading`, `list-item`, `table`, `figure`, `code`... Absent: a ' +
          'paragraph (and every segment of a material processed before structure was kept)',
      }),
    level: z
      .number()
      .int()
      .optional()
      .meta({ description: "A heading's level (1-6); a list item's nesting depth (1 for the outermost list)" }),
    path: z
      .array(z.string())
      .optional()
      .meta({ description: 'The texts of the headings the segment stands under, outermost first' }),
    ordered: z.boolean().optional().meta({ description: 'A list item of a numbered list' }),
    number: z
      .number()
      .int()
      .optional()
      .meta({
        description:
          'A numbered list item\'s own number where the source gives one as a plain decimal (a PDF\'s "3.", ' +
          '`<ol start="3">`, a Word list resumed after another): absent, the item counts on from the one before',
      }),
    rows: z
      .array(z.array(tableCellSchema))
      .optional()
      .meta({ description: "A table's rows of cells (on its first segment, when a table is cut into several)" }),
    language: z.string().optional().meta({ description: "A code block's language, where the source names one" }),
    image: z
      .string()
      .optional()
      .meta({ description: "A figure's stored image: the `id` of its entry in `metadata.images`" }),
    slide: z.number().int().optional(),
    sheet: z.number().int().optional(),
    box: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional().meta({
      description: 'Where the element stands on its PDF page: `[x0, y0, x1, y1]` in points from the top left',
    }),
    hidden: z.boolean().optional().meta({ description: 'An element the source hides (a hidden slide)' }),
  })
  .meta({ id: 'TextSegment' });
export type StoredTextSegment = z.infer<typeof textSegmentSchema>;

const usualSource = (contentType: ContentType) =>
  contentType === 'audio' || contentType === 'video' ? 'transcript' : contentType === 'image' ? 'ocr' : 'text-layer';

/**
 * The longest segment stored, in UTF-16 code units. A plain text or a web page is one segment of the whole
 * text; cut into pieces this long at most, a page of `/text?format=json` costs the api the page, not the text.
 */
export const MAX_SEGMENT_CHARS = 16_384;

/**
 * Where the first piece of a text longer than `max` ends: after the last paragraph break (a blank line) in
 * its first `max` characters, else the last line break, else the last space, as long as that keeps at least
 * half of `max`; else at `max`, moved back one so as not to split a surrogate pair. The pieces of a text
 * joined are the text, so each keeps its offset. `/text` cuts a longer segment stored before this existed
 * with the same function, so a material reads the same whether it was processed before or after.
 */
export function firstPieceEnd(text: string, max = MAX_SEGMENT_CHARS): number {
  if (text.length <= max) return text.length;
  const window = text.slice(0, max);
  for (const [mark, length] of [
    ['\n\n', 2],
    ['\n', 1],
    [' ', 1],
  ] as const) {
    const at = window.lastIndexOf(mark);
    if (at >= max / 2) return at + length;
  }
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

/** A text cut into pieces of at most `max` characters (see `firstPieceEnd`), with where each starts. */
export function piecesOf(text: string, max = MAX_SEGMENT_CHARS): { text: string; start: number }[] {
  const pieces: { text: string; start: number }[] = [];
  let start = 0;
  while (start < text.length) {
    const end = start + firstPieceEnd(text.slice(start, start + max + 1), max);
    pieces.push({ text: text.slice(start, end), start });
    start = end;
  }
  return pieces;
}

/**
 * The segments of an extraction in order, each with its offset in `text`, so that `/text` in JSON agrees with
 * `/text` in plain text. A result without segments is one segment of the whole text; a segment longer than
 * `MAX_SEGMENT_CHARS` becomes several with the same position.
 */
export function textSegmentsOf(
  text: string,
  segments: TextSegment[],
  contentType: ContentType,
  options: { imageId?: (file: string) => string | undefined } = {},
): StoredTextSegment[] {
  const records: StoredTextSegment[] = [];
  const headings = new HeadingPath();
  let cursor = 0;
  for (const segment of segments.length > 0 || !text ? segments : [{ text }]) {
    // A figure may have no caption: it stands where it is, with its image.
    const image = segment.image !== undefined ? options.imageId?.(segment.image) : undefined;
    const offset = segment.text || !image ? text.indexOf(segment.text, cursor) : cursor;
    if ((!segment.text && !image) || offset < 0) continue;
    cursor = offset + segment.text.length;
    const path = headings.above(segment);
    const structure = {
      ...(segment.kind !== undefined ? { kind: segment.kind } : {}),
      ...(segment.level !== undefined ? { level: segment.level } : {}),
      ...(path.length > 0 ? { path } : {}),
      ...(segment.ordered !== undefined ? { ordered: segment.ordered } : {}),
      ...(segment.number !== undefined ? { number: segment.number } : {}),
      ...(segment.language !== undefined ? { language: segment.language } : {}),
      ...(image !== undefined ? { image } : {}),
      ...(segment.slide !== undefined ? { slide: segment.slide } : {}),
      ...(segment.sheet !== undefined ? { sheet: segment.sheet } : {}),
      ...(segment.box !== undefined ? { box: segment.box } : {}),
      ...(segment.hidden ? { hidden: true } : {}),
    };
    const pieces = segment.text ? piecesOf(segment.text) : [{ text: '', start: 0 }];
    for (const [index, piece] of pieces.entries()) {
      records.push({
        text: piece.text,
        offset: offset + piece.start,
        ...(segment.page !== undefined ? { page: segment.page } : {}),
        ...(segment.chapter !== undefined ? { chapter: segment.chapter } : {}),
        ...(segment.startMs !== undefined ? { startMs: segment.startMs } : {}),
        ...(segment.endMs !== undefined ? { endMs: segment.endMs } : {}),
        source: segment.source ?? usualSource(contentType),
        ...(segment.confidence !== undefined ? { confidence: segment.confidence } : {}),
        ...structure,
        ...(index === 0 && segment.rows !== undefined ? { rows: segment.rows } : {}),
      });
    }
  }
  return records;
}

/** The headings a document's elements stand under, read in order: a heading closes those of its level and below. */
export class HeadingPath {
  private open: { level: number; text: string }[] = [];

  /** The texts of the headings above `element`, outermost first; a heading (or title) then opens its own. */
  above(element: Pick<TextSegment, 'kind' | 'level' | 'text'>): string[] {
    const level = element.kind === 'title' ? 0 : element.kind === 'heading' ? (element.level ?? 1) : undefined;
    if (level === undefined) return this.open.map((heading) => heading.text);
    while (this.open.length > 0 && this.open.at(-1)!.level >= level) this.open.pop();
    const path = this.open.map((heading) => heading.text);
    const text = element.text.replace(/\s+/g, ' ').trim();
    if (text) this.open.push({ level, text });
    return path;
  }
}

/**
 * Whether the segments say nothing the text alone does not: the pieces of the whole text, in order, without a
 * position, of the usual source (what `textSegmentsOf` makes of the text alone, which `/text` can make again).
 */
export function segmentsAreJustTheText(segments: StoredTextSegment[], text: string, contentType: ContentType): boolean {
  if (segments.length === 0) return true;
  let end = 0;
  for (const { text: segmentText, offset, source, ...position } of segments) {
    if (offset !== end || source !== usualSource(contentType) || Object.keys(position).length > 0) return false;
    if (text.slice(offset, offset + segmentText.length) !== segmentText) return false;
    end = offset + segmentText.length;
  }
  return end === text.length;
}

import { z } from 'zod';
import { SEGMENT_SOURCES, type ContentType, type TextSegment } from '@quire/extract';

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
  })
  .meta({ id: 'TextSegment' });
export type StoredTextSegment = z.infer<typeof textSegmentSchema>;

const usualSource = (contentType: ContentType) =>
  contentType === 'audio' || contentType === 'video' ? 'transcript' : contentType === 'image' ? 'ocr' : 'text-layer';

/**
 * The segments of an extraction in order, each with its offset in `text`, so that `/text` in JSON agrees with
 * `/text` in plain text. A result without segments is one segment of the whole text.
 */
export function textSegmentsOf(text: string, segments: TextSegment[], contentType: ContentType): StoredTextSegment[] {
  const records: StoredTextSegment[] = [];
  let cursor = 0;
  for (const segment of segments.length > 0 || !text ? segments : [{ text }]) {
    const offset = text.indexOf(segment.text, cursor);
    if (!segment.text || offset < 0) continue;
    cursor = offset + segment.text.length;
    records.push({
      text: segment.text,
      offset,
      ...(segment.page !== undefined ? { page: segment.page } : {}),
      ...(segment.chapter !== undefined ? { chapter: segment.chapter } : {}),
      ...(segment.startMs !== undefined ? { startMs: segment.startMs } : {}),
      ...(segment.endMs !== undefined ? { endMs: segment.endMs } : {}),
      source: segment.source ?? usualSource(contentType),
      ...(segment.confidence !== undefined ? { confidence: segment.confidence } : {}),
    });
  }
  return records;
}

/** Whether the segments say nothing the text alone does not: one segment, all of it, no position, the usual source. */
export function segmentsAreJustTheText(segments: StoredTextSegment[], text: string, contentType: ContentType): boolean {
  if (segments.length === 0) return true;
  const [only, ...rest] = segments;
  const { text: segmentText, offset, source, ...position } = only!;
  return (
    rest.length === 0 &&
    offset === 0 &&
    segmentText === text &&
    source === usualSource(contentType) &&
    Object.keys(position).length === 0
  );
}

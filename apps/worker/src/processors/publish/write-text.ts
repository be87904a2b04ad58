import { countWords, EXTRACTOR_VERSIONS, type ContentType, type ExtractResult } from '@quire/extract';
import { segmentsAreJustTheText, textSegmentsOf, type Material, type ProcessingResult } from '@quire/material';
import type { RunObjects } from './run-objects.ts';
import { storedImageId } from './write-images.ts';

const toNdjson = (records: unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

/**
 * The text part of a run's result: a short text inline, a long one as `text.txt`, and its positioned
 * segments as `segments.ndjson` (what `/text` serves as JSON).
 */
export async function writeText(
  objects: RunObjects,
  material: Material,
  result: ExtractResult,
  contentType: ContentType,
  inlineTextMaxChars: number,
): Promise<ProcessingResult> {
  // A figure names the image file the extractor wrote; stored, it names the image's entry in `metadata.images`.
  const imageIds = new Map<string, string>();
  result.images.forEach((image, index) => {
    if (image.role === 'extracted') imageIds.set(image.file, storedImageId(material, index));
  });
  const segments = textSegmentsOf(result.text, result.segments, contentType, {
    imageId: (file) => (material.extractImages ? imageIds.get(file) : undefined),
  });
  const inline = result.text.length <= inlineTextMaxChars;
  // `/text` makes the one segment of a short unpositioned text from the text itself; others (a structured
  // document's, even when short) are kept.
  const keepSegments = !inline || !segmentsAreJustTheText(segments, result.text, contentType);
  return {
    wordCount: countWords(result.text),
    textLength: result.text.length,
    ...(!inline
      ? {
          textKey: await objects.put('text.txt', result.text, 'text/plain; charset=utf-8'),
          textUrl: `/api/v1/materials/${material.id}/text`,
        }
      : { extractedText: result.text }),
    ...(keepSegments && segments.length > 0
      ? { segmentsKey: await objects.put('segments.ndjson', toNdjson(segments), 'application/x-ndjson') }
      : {}),
    extractor: EXTRACTOR_VERSIONS[contentType],
  };
}

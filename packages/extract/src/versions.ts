import type { ContentType } from './types.ts';

export interface ExtractorVersion {
  name: string;
  version: number;
}

/**
 * Which extractor handles each type, and its version. Bump `version` whenever an extractor's output
 * changes (text, segments, images or metadata), and rename the entry when another extractor takes over.
 * The worker records the entry in `metadata.extractor` of every result it publishes, so results made by
 * an older extractor can be found and reprocessed, e.g. every PDF made before version 2:
 *
 *   select id from materials
 *   where status = 'active' and content_type = 'pdf'
 *     and coalesce((metadata->'extractor'->>'version')::int, 0) < 2;
 *
 * (`POST /api/v1/materials/{id}/reprocess` for each id.)
 */
export const EXTRACTOR_VERSIONS: Record<ContentType, ExtractorVersion> = {
  text: { name: 'text', version: 14 },
  pdf: { name: 'pdfium', version: 12 },
  image: { name: 'sharp-tesseract', version: 3 },
  epub: { name: 'epub2', version: 5 },
  audio: { name: 'ffmpeg-media', version: 1 },
  video: { name: 'ffmpeg-media', version: 1 },
};

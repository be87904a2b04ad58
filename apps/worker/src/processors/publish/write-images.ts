import type { ExtractResult } from '@quire/extract';
import type { Material, ProcessingResult, StoredImage } from '@quire/material';
import type { RunObjects } from './run-objects.ts';

/** The `id` of a run's `index`th extracted image (0-based) in `metadata.images`. */
export const storedImageId = (material: Material, index: number) => `${material.id}-${index + 1}`;

/** Stores a run's images; the preview and thumbnail have fields of their own, the rest are listed. */
export async function writeImages(
  objects: RunObjects,
  material: Material,
  extracted: ExtractResult['images'],
): Promise<Pick<ProcessingResult, 'preview' | 'thumbnail'> & { images: StoredImage[] }> {
  const written: Pick<ProcessingResult, 'preview' | 'thumbnail'> & { images: StoredImage[] } = { images: [] };
  for (const [index, image] of extracted.entries()) {
    const s3Key = await objects.putImageFile(image.file, image.format);
    const position = {
      ...(image.page !== undefined ? { page: image.page } : {}),
      ...(image.chapter !== undefined ? { chapter: image.chapter } : {}),
      ...(image.timestampMs !== undefined ? { timestampMs: image.timestampMs } : {}),
    };
    const entry = {
      id: storedImageId(material, index),
      s3Key,
      ...position,
      width: image.width,
      height: image.height,
      format: image.format,
    };
    if (image.role === 'preview' || image.role === 'thumbnail') written[image.role] = entry;
    else written.images.push({ ...entry, kind: image.role });
  }
  return written;
}

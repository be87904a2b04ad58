import type { ContentType, ExtractResult } from '@quire/extract';
import { publishResult, type PublishOutcome } from '@quire/lifecycle';
import { CONTENT_METADATA, withResult, type Material, type RunMeasures } from '@quire/material';
import type { Logger } from 'pino';
import { chunkSegments } from '../chunk-segments.ts';
import type { ProcessDeps } from '../process-deps.ts';
import { RunObjects } from './run-objects.ts';
import { writeImages } from './write-images.ts';
import { writeText } from './write-text.ts';

/**
 * Turns a successful extraction into the material's published result: checks the metadata against its
 * type's schema, writes the text, segments and images, builds the metadata, cuts the text into search
 * passages and hands all of it to the lifecycle, which makes the material `active` in one transaction.
 * What the run wrote is removed if any step fails.
 */
export async function publishRun(
  deps: Pick<ProcessDeps, 'db' | 'store' | 'config'>,
  material: Material,
  { result, contentType }: { result: ExtractResult; contentType: ContentType },
  outputDir: string,
  run: RunMeasures,
  log: Logger,
): Promise<PublishOutcome> {
  const objects = new RunObjects(deps.store, material, outputDir);
  try {
    // The sandbox's output crosses a process boundary: it is checked against the type's schema, not trusted.
    const contentFields = CONTENT_METADATA[contentType].parse(result.metadata);
    const processed = await writeText(
      objects,
      material,
      result,
      contentType,
      deps.config.extraction.inlineTextMaxChars,
    );
    const { images, ...shown } = await writeImages(objects, material, result.images);
    Object.assign(processed, shown);
    if (material.extractImages) processed.images = images;
    const metadata = withResult(material.metadata, contentFields, processed, run);
    const passages = chunkSegments(result.segments.length > 0 ? result.segments : [{ text: result.text }]);
    return await publishResult(deps, material, { metadata, objects: objects.written, passages }, log);
  } catch (err) {
    await objects.discard(log);
    throw err;
  }
}

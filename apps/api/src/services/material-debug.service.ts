import { listAllSpeechChunks, type SpeechChunk } from '@quire/db';
import { toFlatContent, type Material, type StoredImage } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { getMaterial } from './materials.service.ts';

export interface DebugImage {
  id: string;
  /** 0-based page of a PDF's image (`page` - 1); absent for other materials' images. */
  pageIndex?: number;
  s3Key: string;
  s3Url: string;
  description: string;
}

/**
 * A material as quire holds it, for finding out why it looks the way it does: the row's content and metadata as
 * stored (no signing, no omissions), its images with signed URLs, and for audio and video how the transcript was
 * made: the chunks of a long recording with what each gave, and the stretches left without words.
 */
export async function materialDebugInfo(ctx: ApiContext, organizationId: string, id: string) {
  const material = await getMaterial(ctx, organizationId, id);
  const live = material.status !== 'pending_upload';
  const images = live ? await Promise.all((material.metadata.images ?? []).map((image) => debugImage(ctx, image))) : [];
  const media = material.contentType === 'audio' || material.contentType === 'video';
  return {
    materialId: material.id,
    name: material.name,
    status: material.status,
    contentType: material.contentType,
    content: toFlatContent(material.source),
    metadata: material.metadata,
    images,
    ...(media ? { transcriptStructure: transcriptStructure(material, await listAllSpeechChunks(ctx.db, id)) } : {}),
  };
}

async function debugImage(ctx: ApiContext, image: StoredImage): Promise<DebugImage> {
  const where =
    image.page !== undefined
      ? `page ${image.page}`
      : image.chapter !== undefined
        ? `chapter ${image.chapter}`
        : image.timestampMs !== undefined
          ? `at ${image.timestampMs} ms`
          : undefined;
  const size = image.width && image.height ? `${image.width}x${image.height}` : undefined;
  return {
    id: image.id,
    ...(image.page !== undefined ? { pageIndex: image.page - 1 } : {}),
    s3Key: image.s3Key,
    s3Url: await ctx.signUrl(image.s3Key),
    description: [image.kind ?? 'image', where, size, image.format].filter(Boolean).join(', '),
  };
}

function transcriptStructure(material: Material, chunks: SpeechChunk[]) {
  const { transcription } = material.metadata as { transcription?: Record<string, unknown> };
  // Only the newest plan counts: a re-planned recording forgets the chunks of any other (see recordChunkPlan).
  const plan = chunks.at(-1)?.plan;
  return {
    ...(transcription ?? {}),
    chunked: chunks.length > 0,
    ...(plan ? { plan } : {}),
    chunks: chunks
      .filter((c) => c.plan === plan)
      .map((c) => ({
        index: c.chunk_index,
        startMs: Number(c.start_ms),
        endMs: Number(c.end_ms),
        state: c.segments ? 'transcribed' : c.error ? 'failed' : 'pending',
        segments: c.segments?.length ?? 0,
        ...(c.error ? { error: c.error } : {}),
      })),
  };
}

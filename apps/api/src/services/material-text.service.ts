import { Readable } from 'node:stream';
import { textSegmentsOf, type Material, type StoredTextSegment } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { conflict } from '../errors.ts';
import { getMaterial } from './materials.service.ts';
import { readSegmentPage } from './segment-page.ts';

/** A material whose text can be read: `active`, in this organization (else 404, like every other read). */
export async function activeMaterial(ctx: ApiContext, organizationId: string, id: string): Promise<Material> {
  const material = await getMaterial(ctx, organizationId, id);
  if (material.status !== 'active') {
    throw conflict(`The material is ${material.status}: its text can be read once it is active`);
  }
  return material;
}

/** The whole extracted text as a stream: from the row when it was inlined, else from storage, never whole in memory. */
export async function openText(ctx: ApiContext, organizationId: string, id: string): Promise<Readable> {
  const { metadata } = await activeMaterial(ctx, organizationId, id);
  if (metadata.textKey) return ctx.store.get(metadata.textKey);
  return Readable.from([Buffer.from(metadata.extractedText ?? '')]);
}

/**
 * The segments (NDJSON, one per line) as extraction stored them. A short text without positions has one, its
 * whole text, which is not stored twice; nor has a material processed before segments were stored.
 */
export async function openSegments(ctx: ApiContext, organizationId: string, id: string): Promise<Readable> {
  const material = await activeMaterial(ctx, organizationId, id);
  const { metadata } = material;
  if (metadata.segmentsKey) return ctx.store.get(metadata.segmentsKey);
  if (metadata.textKey) {
    throw conflict('The text of this material was stored before its segments were; reprocess it to read them');
  }
  const segments = textSegmentsOf(metadata.extractedText ?? '', [], material.contentType);
  return Readable.from(segments.map((segment) => `${JSON.stringify(segment)}\n`));
}

/** One page of segments: memory bounded by the page, not the text (see `readSegmentPage`). */
export async function segmentPage(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  page: number,
  limit: number,
  /** The index of the first segment, when given instead of a page: a page cut short by its size goes on from its `next`. */
  start?: number,
): Promise<{ segments: StoredTextSegment[]; page: number; limit: number; hasMore: boolean; next?: number }> {
  const first = start ?? (page - 1) * limit;
  const { segments, hasMore } = await readSegmentPage(await openSegments(ctx, organizationId, id), first, limit);
  return { segments, page, limit, hasMore, ...(hasMore ? { next: first + segments.length } : {}) };
}

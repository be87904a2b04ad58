import {
  findMaterial,
  findFolder,
  findMaterialVersion,
  findVersionedMaterials,
  listMaterialVersions,
  materialCounters,
} from '@quire/db';
import { claimedKind } from '@quire/extract';
import * as lifecycle from '@quire/lifecycle';
import {
  listOmissions,
  originalOf,
  storageKeys,
  type ContentTypeClaim,
  type ListInclude,
  type Material,
  type Reference,
} from '@quire/material';
import type { ProcessingClass } from '@quire/queue';
import type { ApiContext } from '../context.ts';
import { isDependencyDown } from '../dependency-errors.ts';
import { badRequest, conflict, notFound, payloadTooLarge, unavailable, unsupportedType } from '../errors.ts';
import { listItemViewer, materialViewer } from '../views/material-view.ts';
import type { ReceivedUpload } from '../uploads/receive-upload.ts';
import { sanitizeFilename } from './file-name.ts';
import { requireFolders } from './folders.service.ts';
import { ocrLanguagesRefused, requireOcrLanguages } from './ocr-languages.ts';
import { offsetOf, pageOf } from './pagination.ts';

export interface UploadInput {
  upload: ReceivedUpload;
  name: string;
  folderId: string | null;
  extractImages: boolean;
  references: Reference[];
  ocrLanguages?: string[] | undefined;
  /** `interactive` when the client waits for processing; default `bulk`. */
  processingClass?: ProcessingClass;
}

/** A stored upload, handed to the lifecycle with this deployment's limits: a material, or why not. */
export function uploadFile(
  ctx: ApiContext,
  organizationId: string,
  input: UploadInput,
): Promise<lifecycle.UploadOutcome> {
  return queued(
    lifecycle.createFromUpload(
      ctx,
      {
        id: input.upload.materialId,
        organizationId,
        folderId: input.folderId,
        name: input.name,
        references: input.references,
        extractImages: input.extractImages,
        ocrLanguages: input.ocrLanguages,
        processingClass: input.processingClass,
        file: input.upload.file,
      },
      {
        maxBytes: ctx.config.limits.uploadMaxBytes,
        ocrLanguagesRefused: (languages) => ocrLanguagesRefused(ctx, languages),
      },
    ),
  );
}

export interface ContentInput {
  name: string;
  content: { text?: string; url?: string; sourceUrl?: string; type?: ContentTypeClaim };
  folderId: string | null;
  references: Reference[];
  extractImages: boolean;
  ocrLanguages?: string[] | undefined;
  /** `interactive` when the client waits for processing; default `bulk`. */
  processingClass?: ProcessingClass;
}

/** A text material, or a URL material whose bytes the worker fetches. */
export async function createFromContent(
  ctx: ApiContext,
  organizationId: string,
  input: ContentInput,
): Promise<Material> {
  const { text, url, sourceUrl, type } = input.content;
  if (text !== undefined && text.length > ctx.config.limits.textMaterialMaxChars) {
    throw payloadTooLarge(`content.text is longer than ${ctx.config.limits.textMaterialMaxChars} characters`);
  }
  requireOcrLanguages(ctx, input.ocrLanguages);
  await requireFolders(ctx.db, organizationId, [input.folderId]);
  const common = {
    organizationId,
    folderId: input.folderId,
    name: input.name,
    references: input.references,
    extractImages: input.extractImages,
    ocrLanguages: input.ocrLanguages,
    requestedType: type,
    processingClass: input.processingClass,
  };
  return queued(
    text !== undefined
      ? lifecycle.createFromText(ctx, { ...common, text })
      : lifecycle.createFromUrl(ctx, { ...common, url: (url ?? sourceUrl)! }),
  );
}

/** A job the queue refused is a 503 while Redis is down; the lifecycle has already withdrawn its material. */
async function queued<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof lifecycle.JobRefusedError)) throw err;
    if (isDependencyDown(err.cause)) throw unavailable('The processing queue is unavailable; try again shortly');
    throw err.cause;
  }
}

export interface BatchItem {
  name: string;
  filename: string;
  contentType: string;
  folderId?: string | null;
  extractImages?: boolean;
  references?: Reference[];
  ocrLanguages?: string[] | undefined;
}

export async function createBatch(ctx: ApiContext, organizationId: string, items: BatchItem[]) {
  if (items.length > ctx.config.limits.batchMaxItems) {
    throw badRequest(`materials may have at most ${ctx.config.limits.batchMaxItems} items`, [
      { field: 'materials', message: `at most ${ctx.config.limits.batchMaxItems} items` },
    ]);
  }
  items.forEach((item, index) => {
    const kind = claimedKind(item.contentType);
    if (kind === 'other')
      throw unsupportedType(`materials.${index}.contentType: ${item.contentType} is not a supported type`);
    requireOcrLanguages(ctx, item.ocrLanguages);
  });
  await requireFolders(
    ctx.db,
    organizationId,
    items.map((item) => item.folderId),
  );
  const rows = await lifecycle.createPendingUploads(
    ctx,
    items.map((item) => {
      const kind = claimedKind(item.contentType);
      return {
        organizationId,
        folderId: item.folderId ?? null,
        name: item.name,
        filename: sanitizeFilename(item.filename),
        mimeType: item.contentType,
        contentType: kind && kind !== 'other' ? kind : 'text',
        references: item.references ?? [],
        extractImages: item.extractImages ?? true,
        ocrLanguages: item.ocrLanguages,
      };
    }),
  );
  return Promise.all(
    rows.map(async (row, i) => {
      const s3Key = storageKeys.original(organizationId, row.id);
      return {
        name: items[i]!.name,
        uploadUrl: await ctx.store.presignPut(s3Key, ctx.config.limits.uploadUrlTtlSeconds),
        s3Key,
        materialId: row.id,
      };
    }),
  );
}

/** `/upload/complete`: the lifecycle's outcome for the material's uploaded bytes (see `lifecycle.completeUpload`). */
export async function completeUpload(
  ctx: ApiContext,
  organizationId: string,
  materialId: string,
  s3Key: string,
): Promise<Exclude<lifecycle.CompleteOutcome, { status: 'changed' }>> {
  const material = await findMaterial(ctx.db, organizationId, materialId);
  if (!material) throw notFound();
  const { source } = material;
  if (source.kind !== 'file' || source.file.s3Key !== s3Key)
    throw badRequest('s3Key does not belong to this material', [
      { field: 's3Key', message: 'does not match the material' },
    ]);
  const outcome = await queued(
    lifecycle.completeUpload(ctx, material, source.file, { maxBytes: ctx.config.limits.uploadMaxBytes }),
  );
  if (outcome.status !== 'changed') return outcome;
  // Completed concurrently by another request: answer with what it produced.
  const now = await findMaterial(ctx.db, organizationId, materialId);
  if (!now) throw notFound();
  return { status: 'not-pending', material: now };
}

export async function getMaterial(ctx: ApiContext, organizationId: string, id: string): Promise<Material> {
  const material = await findMaterial(ctx.db, organizationId, id);
  if (!material) throw notFound();
  return material;
}

/** A material's JSON as `GET /{id}` answers it (rendered again only when its row changed, see MaterialJson). */
export async function getMaterialJson(ctx: ApiContext, organizationId: string, id: string): Promise<string> {
  const version = await findMaterialVersion(ctx.db, organizationId, id);
  const [json] = version
    ? await ctx.materialJson.of(
        [{ id, version }],
        'whole',
        (ids) => findVersionedMaterials(ctx.db, organizationId, ids),
        materialViewer(ctx.materialJson.sign),
      )
    : [];
  if (json === undefined) throw notFound();
  return json;
}

/**
 * A page of materials as list items' JSON, with the total, doing the least work the page allows: the page's ids
 * and row versions come first, and only rows not rendered at that version are read (see MaterialJson). A page
 * that is not full proves the total; else it comes from the organization's counters (read by the same
 * statement) or the folder's, and only a name search counts rows (kept per listing version, see ListingCounts).
 */
export async function listMaterials(
  ctx: ApiContext,
  organizationId: string,
  q: { folderId?: string; search?: string; page: number; limit: number; include?: ListInclude[] },
) {
  const filter = { folderId: q.folderId, search: q.search || undefined };
  const folder = q.folderId === undefined ? undefined : await findFolder(ctx.db, organizationId, q.folderId);
  if (q.folderId !== undefined && !folder) throw notFound('Folder');
  const offset = offsetOf(q);
  const { rows, counters } = await listMaterialVersions(ctx.db, organizationId, { ...filter, limit: q.limit, offset });
  const total =
    rows.length < q.limit && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : filter.search
        ? await ctx.listingCounts.count(ctx.db, organizationId, filter, counters?.listingVersion)
        : folder
          ? folder.material_count
          : (counters ?? (await materialCounters(ctx.db, organizationId))).live;
  const include = [...new Set(q.include ?? [])].sort();
  const items = await ctx.materialJson.of(
    rows,
    `list item with ${include.join(',')}`,
    (ids) => findVersionedMaterials(ctx.db, organizationId, ids, listOmissions(include)),
    listItemViewer(ctx.materialJson.sign, include),
  );
  return pageOf({ rows: items, total }, q);
}

export async function updateReferences(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  references: Reference[] | undefined,
) {
  if (references === undefined) return getMaterial(ctx, organizationId, id);
  const updated = await lifecycle.replaceReferences(ctx.db, organizationId, id, references);
  if (!updated) throw notFound();
  return updated;
}

/** Marks the material deleted, cancels its job and removes its objects (see `lifecycle.deleteMaterial`). */
export async function deleteMaterial(ctx: ApiContext, organizationId: string, id: string): Promise<void> {
  if (!(await lifecycle.deleteMaterial(ctx, organizationId, id))) throw notFound();
}

export type WaitOutcome = { kind: 'active' | 'error' | 'timeout'; material: Material };

/** Waits for the material's job to settle (event first, database re-read as a fallback). */
export async function waitForProcessing(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  timing: { timeoutMs: number; pollIntervalMs: number },
): Promise<WaitOutcome> {
  const { value, timedOut } = await ctx.waiter.waitFor(
    id,
    () => findMaterial(ctx.db, organizationId, id),
    (m) => !m || m.status === 'active' || m.status === 'error',
    timing,
  );
  if (!value) throw notFound();
  if (timedOut) return { kind: 'timeout', material: value };
  return { kind: value.status === 'active' ? 'active' : 'error', material: value };
}

/** A single-file upload URL: a batch of one, completed by `/upload/complete` like any batch slot. */
export async function createPresignedUpload(ctx: ApiContext, organizationId: string, item: BatchItem) {
  const [slot] = await createBatch(ctx, organizationId, [item]);
  return { uploadUrl: slot!.uploadUrl, s3Key: slot!.s3Key, materialId: slot!.materialId };
}

export async function moveMaterial(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  folderId: string | null,
): Promise<Material> {
  await requireFolders(ctx.db, organizationId, [folderId]);
  const [moved] = await lifecycle.moveMaterials(ctx.db, organizationId, [id], folderId);
  if (!moved) throw notFound();
  return getMaterial(ctx, organizationId, id);
}

/** Moves every listed material or none: one that is not the organization's (or is deleted) makes it 404. */
export async function bulkMoveMaterials(
  ctx: ApiContext,
  organizationId: string,
  ids: string[],
  folderId: string | null,
) {
  const unique = [...new Set(ids)];
  await requireFolders(ctx.db, organizationId, [folderId]);
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const rows = await lifecycle.moveMaterials(trx, organizationId, unique, folderId);
    if (rows.length !== unique.length) throw notFound();
    return rows.length;
  });
  return { success: true, movedCount: moved };
}

export async function renameMaterial(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  name: string,
): Promise<Material> {
  const renamed = await lifecycle.renameMaterial(ctx.db, organizationId, id, name);
  if (!renamed) throw notFound();
  return renamed;
}

/** Runs extraction again: the lifecycle's outcome (see `lifecycle.reprocess`). */
export async function reprocessMaterial(
  ctx: ApiContext,
  organizationId: string,
  id: string,
): Promise<lifecycle.ReprocessOutcome> {
  return queued(lifecycle.reprocess(ctx, await getMaterial(ctx, organizationId, id)));
}

export async function downloadUrl(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  { expiresInSeconds, disposition }: { expiresInSeconds: number; disposition: 'inline' | 'attachment' },
): Promise<string> {
  const material = await getMaterial(ctx, organizationId, id);
  if (material.status === 'pending_upload') throw conflict('The file has not been uploaded yet');
  if (material.source.kind === 'text') {
    // Served as text/plain: its file is written the first time it is asked for.
    const key = await lifecycle.keepTextFile(ctx, material);
    return ctx.store.presignGet(key, expiresInSeconds, {
      filename: `${sanitizeFilename(material.name)}.txt`,
      contentType: 'text/plain; charset=utf-8',
      disposition,
    });
  }
  const original = originalOf(material.source);
  if (!original) throw conflict('The URL has not been fetched yet; ask again once the material is processed');
  if (original.etag) {
    const object = await ctx.store.stat(original.s3Key);
    if (!object || object.etag !== original.etag || object.size !== original.fileSize) {
      ctx.logger.warn(
        { materialId: id, pinned: original.etag, found: object?.etag },
        'the original was replaced after upload/complete',
      );
      throw conflict(
        'The stored original is no longer the file that was uploaded and processed (it was overwritten through its upload URL)',
      );
    }
  }
  return ctx.store.presignGet(original.s3Key, expiresInSeconds, {
    filename: original.filename,
    contentType: original.mimeType ?? 'application/octet-stream',
    disposition,
  });
}

import path from 'node:path';
import {
  findMaterial,
  findFolder,
  findMaterialVersion,
  findVersionedMaterials,
  listMaterialVersions,
  materialCounters,
  moveMaterials,
  renameMaterial as renameMaterialRow,
  replaceReferences,
} from '@quire/db';
import { claimContradicts, claimedKind, sniff, SNIFF_BYTES } from '@quire/extract';
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
import { capFileName } from './file-name.ts';
import { requireFolders } from './folders.service.ts';
import { requireOcrLanguages } from './ocr-languages.ts';
import { offsetOf, pageOf } from './pagination.ts';
import { removeRefusedUpload } from './refused-upload.ts';

/** Keeps a client's file name as metadata only: no directories, no control characters, bounded length. */
export function sanitizeFilename(raw: string | undefined): string {
  const base = path.posix.basename((raw ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '');
  const trimmed = capFileName(base.trim());
  return trimmed === '' || trimmed === '.' || trimmed === '..' ? 'upload' : trimmed;
}

/** A file already streamed into storage under `key`, as the client sent it. */
export interface UploadedFile {
  key: string;
  size: number;
  /** The first bytes, to sniff the real type from. */
  head: Buffer;
  /** The upload hit the size limit and was cut short. */
  truncated: boolean;
  originalname: string;
  mimetype: string;
}

export interface UploadInput {
  materialId: string;
  file: UploadedFile;
  name: string;
  folderId: string | null;
  extractImages: boolean;
  references: Reference[];
  ocrLanguages?: string[] | undefined;
  /** `interactive` when the client waits for processing; default `bulk`. */
  processingClass?: ProcessingClass;
}

/** Validates a streamed upload's bytes and creates its material in `processing`, or removes the object. */
export async function createFromUpload(ctx: ApiContext, organizationId: string, input: UploadInput): Promise<Material> {
  const { file } = input;
  try {
    if (file.truncated)
      throw payloadTooLarge(`The file is larger than the upload limit of ${ctx.config.limits.uploadMaxBytes} bytes`);
    if (file.size === 0) throw badRequest('The file is empty', [{ field: 'file', message: 'The file is empty' }]);
    const sniffed = await sniff(file.head);
    if (!sniffed.supported) throw unsupportedType(sniffed.reason);
    if (claimContradicts(file.mimetype, sniffed.contentType)) {
      throw unsupportedType(`The file was sent as ${file.mimetype} but its bytes are ${sniffed.mimeType}`);
    }
    requireOcrLanguages(ctx, input.ocrLanguages);
    await requireFolders(ctx.db, organizationId, [input.folderId]);
    return await queued(
      lifecycle.createFromUpload(ctx, {
        id: input.materialId,
        organizationId,
        folderId: input.folderId,
        name: input.name,
        references: input.references,
        extractImages: input.extractImages,
        ocrLanguages: input.ocrLanguages,
        processingClass: input.processingClass,
        file: {
          key: file.key,
          filename: sanitizeFilename(file.originalname),
          size: file.size,
          mimeType: sniffed.mimeType,
          contentType: sniffed.contentType,
        },
      }),
    );
  } catch (err) {
    await ctx.store
      .remove([file.key])
      .catch((removeErr) => ctx.logger.warn({ err: removeErr, key: file.key }, 'could not remove a refused upload'));
    throw err;
  }
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

export async function completeUpload(
  ctx: ApiContext,
  organizationId: string,
  materialId: string,
  s3Key: string,
): Promise<Material> {
  const material = await findMaterial(ctx.db, organizationId, materialId);
  if (!material) throw notFound();
  const { source } = material;
  if (source.kind !== 'file' || source.file.s3Key !== s3Key)
    throw badRequest('s3Key does not belong to this material', [
      { field: 's3Key', message: 'does not match the material' },
    ]);
  if (material.status !== 'pending_upload') return material;

  const object = await ctx.store.stat(s3Key);
  if (!object) throw conflict('The file has not been uploaded to the upload URL yet');
  if (object.size > ctx.config.limits.uploadMaxBytes) {
    await ctx.store.remove([s3Key]);
    throw payloadTooLarge(`The file is larger than the upload limit of ${ctx.config.limits.uploadMaxBytes} bytes`);
  }
  if (object.size === 0) throw await removeRefusedUpload(ctx.store, s3Key, badRequest('The uploaded file is empty'));
  const sniffed = await sniff(await ctx.store.head(s3Key, SNIFF_BYTES));
  if (!sniffed.supported) throw await removeRefusedUpload(ctx.store, s3Key, unsupportedType(sniffed.reason));
  if (claimContradicts(source.file.mimeType, sniffed.contentType)) {
    throw await removeRefusedUpload(
      ctx.store,
      s3Key,
      unsupportedType(`The file was announced as ${source.file.mimeType} but its bytes are ${sniffed.mimeType}`),
    );
  }
  const completed = await queued(
    lifecycle.completeUpload(ctx, material, source.file, {
      size: object.size,
      etag: object.etag,
      mimeType: sniffed.mimeType,
      contentType: sniffed.contentType,
    }),
  );
  // Completed concurrently by another request: answer with what it produced.
  return completed ?? (await findMaterial(ctx.db, organizationId, materialId)) ?? Promise.reject(notFound());
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
  const updated = await replaceReferences(ctx.db, organizationId, id, references);
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
  const [moved] = await moveMaterials(ctx.db, organizationId, [id], folderId);
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
    const rows = await moveMaterials(trx, organizationId, unique, folderId);
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
  const renamed = await renameMaterialRow(ctx.db, organizationId, id, name);
  if (!renamed) throw notFound();
  return renamed;
}

/** Runs extraction again (see `lifecycle.reprocess`); one still uploading or processing is 409. */
export async function reprocessMaterial(ctx: ApiContext, organizationId: string, id: string): Promise<Material> {
  const outcome = await queued(lifecycle.reprocess(ctx, await getMaterial(ctx, organizationId, id)));
  if (outcome.status === 'not-reprocessable') {
    throw conflict(
      `A material in ${outcome.material.status} cannot be reprocessed; only active or error materials can`,
    );
  }
  if (outcome.status === 'changed') throw conflict('The material changed state meanwhile; read it and try again');
  return outcome.material;
}

export async function downloadUrl(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  expiresInSeconds: number,
): Promise<string> {
  const material = await getMaterial(ctx, organizationId, id);
  if (material.status === 'pending_upload') throw conflict('The file has not been uploaded yet');
  if (material.source.kind === 'text') {
    // Served as text/plain: its file is written the first time it is asked for.
    const key = await lifecycle.keepTextFile(ctx, material);
    return ctx.store.presignGet(key, expiresInSeconds, { filename: `${sanitizeFilename(material.name)}.txt` });
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
  return ctx.store.presignGet(original.s3Key, expiresInSeconds, { filename: original.filename });
}

import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import multer from 'multer';
import { newId, type ChunkHit } from '@quire/db';
import { storageKeys, type Material, type Reference } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { AppError, badRequest } from '../errors.ts';
import { principalOf } from '../middleware/authenticate.ts';
import { fingerprintOf, idempotent, type Reply } from '../services/idempotency.ts';
import { streamMaterialEvents } from '../services/material-events.ts';
import { materialViewer, toMaterialPage } from '../services/material-view.ts';
import * as materials from '../services/materials.service.ts';
import { objectStoreEngine, type StreamedFile } from '../uploads/object-store-engine.ts';
import {
  batchSchema,
  bulkMoveSchema,
  completeSchema,
  createAndWaitSchema,
  createSchema,
  downloadUrlQuerySchema,
  listQuerySchema,
  moveSchema,
  patchSchema,
  presignedUploadSchema,
  renameSchema,
  searchSchema,
  uploadAndWaitFieldsSchema,
  uploadFieldsSchema,
  urlUploadAndWaitSchema,
  urlUploadSchema,
} from './materials.schema.ts';

/** One search hit on the wire: its passage, where it sits in the material, and which material. */
function toSearchResult(hit: ChunkHit) {
  return {
    score: hit.score,
    text: hit.text,
    chunkIndex: hit.chunk_index,
    ...(hit.page !== null ? { page: hit.page } : {}),
    ...(hit.chapter !== null ? { chapter: hit.chapter } : {}),
    ...(hit.start_ms !== null ? { startMs: hit.start_ms } : {}),
    ...(hit.end_ms !== null ? { endMs: hit.end_ms } : {}),
    material: { id: hit.material_id, name: hit.material_name, contentType: hit.content_type },
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      materialId?: string;
    }
  }
}

export function materialsRouter(ctx: ApiContext): Router {
  const router = Router();
  const view = materialViewer(ctx.store, ctx.config.DOWNLOAD_URL_TTL_SECONDS);

  const upload = multer({
    storage: objectStoreEngine(ctx.store, (req) =>
      storageKeys.original(principalOf(req).organizationId, (req.res!.locals.materialId ??= newId())),
    ),
    limits: {
      fileSize: ctx.config.UPLOAD_MAX_BYTES,
      files: 1,
      fields: ctx.config.UPLOAD_MAX_FIELDS,
      parts: ctx.config.UPLOAD_MAX_FIELDS + 1,
      fieldSize: ctx.config.UPLOAD_MAX_FIELD_BYTES,
    },
  }).single('file');

  /** Runs multer, then makes sure a stored file is removed if the request fails before a material owns it. */
  const receiveUpload = async (req: Request, res: Response) => {
    await new Promise<void>((resolve, reject) => upload(req, res, (err: unknown) => (err ? reject(err) : resolve())));
    const file = req.file as (Express.Multer.File & StreamedFile) | undefined;
    if (!file?.key) throw badRequest('file is required', [{ field: 'file', message: 'file is required' }]);
    return { ...file, materialId: res.locals.materialId! };
  };

  /** Stores the file and validates the fields; the caller creates the material (or discards the file). */
  const receiveValidUpload = async <T extends z.infer<typeof uploadFieldsSchema>>(req: Request, res: Response, schema: z.ZodType<T>) => {
    const { organizationId } = principalOf(req);
    let file;
    try {
      file = await receiveUpload(req, res);
    } catch (err) {
      if (res.locals.materialId) await ctx.store.remove([storageKeys.original(organizationId, res.locals.materialId)]).catch(() => {});
      throw err;
    }
    const parsed = schema.safeParse(req.body ?? {});
    if (!parsed.success) {
      await ctx.store.remove([file.key]).catch(() => {});
      throw parsed.error;
    }
    return { organizationId, file, fields: parsed.data, discard: () => ctx.store.remove([file.key]) };
  };

  const createFromUpload = ({ organizationId, file, fields }: Awaited<ReturnType<typeof receiveValidUpload>>) =>
    materials.createFromUpload(ctx, organizationId, {
      materialId: file.materialId,
      file,
      name: fields.name,
      folderId: fields.folderId ?? null,
      extractImages: fields.extractImages,
      references: fields.references ?? [],
    });

  const createFromContent = (req: Request, body: z.infer<typeof createSchema>) =>
    materials.createFromContent(ctx, principalOf(req).organizationId, {
      name: body.name,
      content: body.content,
      folderId: body.folderId ?? null,
      references: body.references ?? [],
      extractImages: body.extractImages ?? true,
    });

  const waitAndReply = async (req: Request, material: Material, timing: { timeoutMs: number; pollIntervalMs: number }): Promise<Reply> => {
    // Nothing flows while the request waits on processing; the idle timeout must not cut it short.
    req.socket.setTimeout(timing.timeoutMs + ctx.config.HTTP_IDLE_TIMEOUT_MS);
    req.res!.once('finish', () => req.socket.setTimeout(ctx.config.HTTP_IDLE_TIMEOUT_MS));
    const outcome = await materials.waitForProcessing(ctx, material.organizationId, material.id, timing);
    const body = await view(outcome.material);
    if (outcome.kind === 'active') return { status: 201, body };
    if (outcome.kind === 'timeout') {
      return { status: 202, body, headers: { Location: `${ctx.config.publicUrl}/api/v1/materials/${material.id}` } };
    }
    const { error } = outcome.material.metadata;
    // A URL whose bytes contradict the client's content.type is the client's mistake, not a processing failure.
    const status = error?.claimedType ? 400 : 422;
    return { status, body: new AppError(status, error?.code ?? 'INTERNAL', error?.message ?? 'Processing failed', undefined, { material: body }).toBody() };
  };

  const send = (res: Response, reply: Reply) => {
    if (reply.headers) res.set(reply.headers);
    res.status(reply.status).json(reply.body);
  };

  const uploadFingerprint = (req: Request, upload: Awaited<ReturnType<typeof receiveValidUpload>>) =>
    fingerprintOf(req, upload.fields, upload.file.size, upload.file.sha256);

  router.post('/upload', async (req, res) => {
    const upload = await receiveValidUpload(req, res, uploadFieldsSchema);
    const reply = await idempotent(
      ctx,
      req,
      uploadFingerprint(req, upload),
      async () => ({ status: 201, body: await view(await createFromUpload(upload)) }),
      upload.discard,
    );
    send(res, reply);
  });

  router.post('/upload/file-and-process', async (req, res) => {
    const upload = await receiveValidUpload(req, res, uploadAndWaitFieldsSchema);
    const reply = await idempotent(
      ctx,
      req,
      uploadFingerprint(req, upload),
      async () => waitAndReply(req, await createFromUpload(upload), upload.fields),
      upload.discard,
    );
    send(res, reply);
  });

  router.post('/upload-and-process', async (req, res) => {
    const body = createAndWaitSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () =>
      waitAndReply(req, await createFromContent(req, body), body),
    );
    send(res, reply);
  });

  const createFromUrl = (req: Request, body: { name: string; url: string; folderId?: string | null; references?: Reference[] }) =>
    createFromContent(req, { ...body, content: { url: body.url } });

  router.post('/upload/url', async (req, res) => {
    const body = urlUploadSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => ({
      status: 201,
      body: await view(await createFromUrl(req, body)),
    }));
    send(res, reply);
  });

  router.post('/upload/url-and-process', async (req, res) => {
    const body = urlUploadAndWaitSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => waitAndReply(req, await createFromUrl(req, body), body));
    send(res, reply);
  });

  router.post('/batch', async (req, res) => {
    const body = batchSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => ({
      status: 201,
      body: await materials.createBatch(ctx, principalOf(req).organizationId, body.materials),
    }));
    send(res, reply);
  });

  router.post('/upload/complete', async (req, res) => {
    const body = completeSchema.parse(req.body ?? {});
    const material = await materials.completeUpload(ctx, principalOf(req).organizationId, body.materialId, body.s3Key);
    res.status(200).json(await view(material));
  });

  router.get('/', async (req, res) => {
    const query = listQuerySchema.parse(req.query);
    res.json(await toMaterialPage(await materials.listMaterials(ctx, principalOf(req).organizationId, query), view));
  });

  router.get('/:id', async (req, res) => {
    res.json(await view(await materials.getMaterial(ctx, principalOf(req).organizationId, req.params.id)));
  });

  router.get('/:id/events', async (req, res) => {
    await streamMaterialEvents(ctx, req, res, principalOf(req).organizationId, req.params.id);
  });

  router.patch('/:id', async (req, res) => {
    const body = patchSchema.parse(req.body ?? {});
    res.json(await view(await materials.updateReferences(ctx, principalOf(req).organizationId, req.params.id, body.references)));
  });

  router.delete('/:id', async (req, res) => {
    await materials.deleteMaterial(ctx, principalOf(req).organizationId, req.params.id);
    res.json({ success: true, id: req.params.id });
  });

  router.post('/', async (req, res) => {
    const body = createSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => ({
      status: 201,
      body: await view(await createFromContent(req, body)),
    }));
    send(res, reply);
  });

  router.post('/upload/presigned-url', async (req, res) => {
    const body = presignedUploadSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => ({
      status: 200,
      body: await materials.createPresignedUpload(ctx, principalOf(req).organizationId, body),
    }));
    send(res, reply);
  });

  router.post('/search', async (req, res) => {
    const body = searchSchema.parse(req.body ?? {});
    const { hits, filtered } = await materials.searchMaterials(ctx, principalOf(req).organizationId, body);
    const results = hits.map(toSearchResult);
    res.json({
      query: body.query,
      results,
      totalResults: results.length,
      filtered,
      scope: { materialIds: body.materialIds ?? null, folderIds: body.folderIds ?? null },
    });
  });

  // Before `/:id/move`, which would otherwise take "bulk" for a material id.
  router.post('/bulk/move', async (req, res) => {
    const body = bulkMoveSchema.parse(req.body ?? {});
    res.json(await materials.bulkMoveMaterials(ctx, principalOf(req).organizationId, body.materialIds, body.folderId));
  });

  router.post('/:id/move', async (req, res) => {
    const body = moveSchema.parse(req.body ?? {});
    res.json(await view(await materials.moveMaterial(ctx, principalOf(req).organizationId, req.params.id, body.folderId)));
  });

  router.post('/:id/rename', async (req, res) => {
    const body = renameSchema.parse(req.body ?? {});
    res.json(await view(await materials.renameMaterial(ctx, principalOf(req).organizationId, req.params.id, body.name)));
  });

  router.post('/:id/reprocess', async (req, res) => {
    res.json(await view(await materials.reprocessMaterial(ctx, principalOf(req).organizationId, req.params.id)));
  });

  router.get('/:id/download-url', async (req, res) => {
    const { expiresIn } = downloadUrlQuerySchema.parse(req.query);
    res.json({ downloadUrl: await materials.downloadUrl(ctx, principalOf(req).organizationId, req.params.id, expiresIn) });
  });

  return router;
}

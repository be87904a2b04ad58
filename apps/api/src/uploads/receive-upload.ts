import type { Request, Response } from 'express';
import multer from 'multer';
import { newId } from '@quire/db';
import { storageKeys } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { objectStoreEngine, type StreamedFile } from './object-store-engine.ts';

/** A multipart upload's file, already in storage under the key of the material it will become. */
export interface ReceivedUpload {
  materialId: string;
  file: StreamedFile & { originalname: string; mimetype: string };
  /** Removes the stored file: the request failed, or it was a replay of one that already made the material. */
  discard(): Promise<void>;
}

/**
 * Streams the request's one `file` part into storage (never into memory) under a fresh material's key.
 * If the request fails before the file is complete, whatever was stored is removed.
 */
export function uploadReceiver(ctx: ApiContext) {
  const limits = {
    fileSize: ctx.config.limits.uploadMaxBytes,
    files: 1,
    fields: ctx.config.limits.uploadMaxFields,
    parts: ctx.config.limits.uploadMaxFields + 1,
    fieldSize: ctx.config.limits.uploadMaxFieldBytes,
  };
  const remove = (key: string) => () =>
    ctx.store
      .remove([key])
      .catch((err) => ctx.logger.warn({ err, key }, 'could not remove an upload that no material owns'));

  return async (req: Request, res: Response, organizationId: string): Promise<ReceivedUpload> => {
    const materialId = newId();
    const key = storageKeys.original(organizationId, materialId);
    const upload = multer({ storage: objectStoreEngine(ctx.store, () => key, ctx.logger), limits }).single('file');
    try {
      await new Promise<void>((resolve, reject) => upload(req, res, (err: unknown) => (err ? reject(err) : resolve())));
    } catch (err) {
      await remove(key)();
      throw err;
    }
    const file = req.file as (Express.Multer.File & StreamedFile) | undefined;
    if (!file?.key) throw badRequest('file is required', [{ field: 'file', message: 'file is required' }]);
    return { materialId, file, discard: remove(key) };
  };
}

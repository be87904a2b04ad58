import type { Request, Response } from 'express';
import multer from 'multer';
import { newId } from '@quire/db';
import { storageKeys } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { contentEncodingOf, decodingStreamHandler } from './content-decoding.ts';
import { objectStoreEngine, type StreamedFile } from './object-store-engine.ts';

/** multer 2's options; its type package does not know `streamHandler` yet. */
type MulterOptions = multer.Options & { streamHandler?: ReturnType<typeof decodingStreamHandler> };

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
    const contentEncoding = contentEncodingOf(req);
    const materialId = newId();
    const key = storageKeys.original(organizationId, materialId);
    const options: MulterOptions = {
      storage: objectStoreEngine(ctx.store, () => key, ctx.logger),
      limits,
      // Browsers and fetch send a file name as raw UTF-8; busboy's default (latin-1) would garble every non-ASCII one.
      defParamCharset: 'utf8',
      streamHandler: decodingStreamHandler(contentEncoding),
    };
    const upload = multer(options).single('file');
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

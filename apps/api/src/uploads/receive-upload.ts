import type { Request, Response } from 'express';
import multer from 'multer';
import { findMaterialForProcessing, newId } from '@quire/db';
import type { StoredUpload } from '@quire/lifecycle';
import { storageKeys } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { contentEncodingOf, decodingStreamHandler } from './content-decoding.ts';
import { sanitizeFilename } from '../services/file-name.ts';
import { objectStoreEngine } from './object-store-engine.ts';

/** multer 2's options; its type package does not know `streamHandler` yet. */
type MulterOptions = multer.Options & { streamHandler?: ReturnType<typeof decodingStreamHandler> };

/** A multipart upload's file, already in storage under the key of the material it will become. */
export interface ReceivedUpload {
  materialId: string;
  file: StoredUpload;
  /** False for an idempotent replay's file, measured and hashed but not stored: it can make no material. */
  stored: boolean;
}

/**
 * Streams the request's one `file` part into storage (never into memory) under a fresh material's key, and
 * removes it once the request is over unless a material owns it: the one place a refused, failed or replayed
 * upload is cleaned up, whatever refused it.
 */
export function uploadReceiver(ctx: ApiContext) {
  const limits = {
    fileSize: ctx.config.limits.uploadMaxBytes,
    files: 1,
    fields: ctx.config.limits.uploadMaxFields,
    parts: ctx.config.limits.uploadMaxFields + 1,
    fieldSize: ctx.config.limits.uploadMaxFieldBytes,
  };
  const removeUnowned = async (materialId: string, key: string) => {
    const owned = await findMaterialForProcessing(ctx.db, materialId).then(
      (material) => material !== undefined,
      (err: unknown) => (ctx.logger.warn({ err, key }, 'could not tell whether a material owns an upload'), false),
    );
    if (owned) return;
    await ctx.store
      .remove([key])
      .catch((err) => ctx.logger.warn({ err, key }, 'could not remove an upload that no material owns'));
  };

  /**
   * Runs `handle` with the request's stored file; afterwards the file stays only if a material owns it. With
   * `store` false the file is read, measured and hashed, never stored.
   */
  return async <T>(
    req: Request,
    res: Response,
    organizationId: string,
    handle: (upload: ReceivedUpload) => Promise<T>,
    { store = true }: { store?: boolean } = {},
  ): Promise<T> => {
    const contentEncoding = contentEncodingOf(req);
    const materialId = newId();
    const key = storageKeys.original(organizationId, materialId);
    const options: MulterOptions = {
      storage: objectStoreEngine(store ? ctx.store : undefined, () => key, ctx.logger),
      limits,
      // Browsers and fetch send a file name as raw UTF-8; busboy's default (latin-1) would garble every non-ASCII one.
      defParamCharset: 'utf8',
      streamHandler: decodingStreamHandler(contentEncoding),
    };
    const upload = multer(options).single('file');
    try {
      await new Promise<void>((resolve, reject) => upload(req, res, (err: unknown) => (err ? reject(err) : resolve())));
      const file = req.file;
      if (!file?.key || file.size === undefined || !file.head || file.truncated === undefined || !file.sha256) {
        throw badRequest('file is required', [{ field: 'file', message: 'file is required' }]);
      }
      return await handle({
        materialId,
        file: {
          key: file.key,
          size: file.size,
          head: file.head,
          truncated: file.truncated,
          sha256: file.sha256,
          filename: sanitizeFilename(file.originalname),
          mimeType: file.mimetype,
        },
        stored: store,
      });
    } finally {
      if (store) await removeUnowned(materialId, key);
    }
  };
}

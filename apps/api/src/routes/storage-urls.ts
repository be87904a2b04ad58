import { pipeline } from 'node:stream';
import { Router } from 'express';
import { contentDisposition, ObjectExistsError, type LocalStore } from '@quire/storage';
import type { ApiContext } from '../context.ts';
import { uploadUrlState } from '../services/materials.service.ts';
import { ByteLimit } from '../uploads/byte-limit.ts';
import { AppError, conflict, payloadTooLarge } from '../errors.ts';

const alreadyUsed = () => conflict('This upload URL has already been used');
const goneMaterial = () => new AppError(404, 'NOT_FOUND', 'The material of this upload URL no longer exists');

/**
 * Serves the local-disk driver's signed URLs, standing in for what S3 does with presigned ones:
 * one PUT per upload URL (the first complete writer wins), GETs until expiry.
 */
export function storageUrlsRouter(ctx: Pick<ApiContext, 'db'>, store: LocalStore, maxBytes: number): Router {
  const router = Router();
  const check = (op: 'put' | 'get', query: Record<string, unknown>) => {
    const result = store.verify(op, query);
    if (!result.ok) {
      throw new AppError(403, 'SIGNATURE', result.reason === 'expired' ? 'This URL has expired' : 'This URL is not valid');
    }
    return result;
  };
  const uploadState = (key: string) => uploadUrlState(ctx, key);

  router.put('/put', async (req, res) => {
    const { key } = check('put', req.query);
    const state = await uploadState(key);
    if (state === 'gone') throw goneMaterial();
    if (state === 'used' || (await store.stat(key))) throw alreadyUsed();
    const declared = Number(req.get('content-length') ?? NaN);
    if (declared > maxBytes) throw payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes`);
    const limiter = new ByteLimit(maxBytes);
    // pipeline, not pipe: a client that aborts destroys the limiter too, so the store closes and removes its file.
    pipeline(req, limiter, () => {});
    let size: number;
    try {
      ({ size } = await store.putOnce(key, limiter));
    } catch (err) {
      if (err instanceof ObjectExistsError) throw err.inFlight ? conflict('Another upload to this URL is in progress') : alreadyUsed();
      if (limiter.exceeded) throw payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes`);
      throw err;
    }
    // Deleted while its body was arriving: nothing owns the object any more, so it must not stay.
    if ((await uploadState(key)) === 'gone') {
      await store.remove([key]);
      throw goneMaterial();
    }
    res.status(200).json({ key, size });
  });

  router.get('/get', async (req, res) => {
    const { key, filename } = check('get', req.query);
    const info = await store.stat(key);
    if (!info) throw new AppError(404, 'NOT_FOUND', 'Object not found');
    res.set('Content-Length', String(info.size));
    res.set('Content-Type', 'application/octet-stream');
    if (filename) res.set('Content-Disposition', contentDisposition(filename));
    // pipeline, not pipe: a client that goes away must not leave the file open.
    pipeline(await store.get(key), res, () => {});
  });

  return router;
}

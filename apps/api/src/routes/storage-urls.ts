import { Router } from 'express';
import { contentDisposition, type LocalStore } from '@quire/storage';
import { ByteLimit } from '../uploads/byte-limit.ts';
import { AppError, conflict, payloadTooLarge } from '../errors.ts';

/**
 * Serves the local-disk driver's signed URLs, standing in for what S3 does with presigned ones:
 * one PUT per upload URL, GETs until expiry.
 */
export function storageUrlsRouter(store: LocalStore, maxBytes: number): Router {
  const router = Router();
  const check = (op: 'put' | 'get', query: Record<string, unknown>) => {
    const result = store.verify(op, query);
    if (!result.ok) {
      throw new AppError(403, 'SIGNATURE', result.reason === 'expired' ? 'This URL has expired' : 'This URL is not valid');
    }
    return result;
  };

  router.put('/put', async (req, res) => {
    const { key } = check('put', req.query);
    if (await store.stat(key)) throw conflict('This upload URL has already been used');
    const declared = Number(req.get('content-length') ?? NaN);
    if (declared > maxBytes) throw payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes`);
    const limiter = new ByteLimit(maxBytes);
    req.pipe(limiter);
    try {
      const { size } = await store.put(key, limiter);
      res.status(200).json({ key, size });
    } catch (err) {
      if (limiter.exceeded) throw payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes`);
      throw err;
    }
  });

  router.get('/get', async (req, res) => {
    const { key, filename } = check('get', req.query);
    const info = await store.stat(key);
    if (!info) throw new AppError(404, 'NOT_FOUND', 'Object not found');
    res.set('Content-Length', String(info.size));
    res.set('Content-Type', 'application/octet-stream');
    if (filename) res.set('Content-Disposition', contentDisposition(filename));
    (await store.get(key)).pipe(res);
  });

  return router;
}

import { pipeline } from 'node:stream';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { settleUploadedBody, uploadUrlState } from '@quire/lifecycle';
import { contentDisposition, ObjectExistsError, type LocalStore } from '@quire/storage';
import type { ApiContext } from '../context.ts';
import { AppError, conflict, payloadTooLarge } from '../errors.ts';
import { errorResponse, json } from '../openapi/common.ts';
import { ByteLimit } from '../uploads/byte-limit.ts';
import { plainRoute, type AnyRoute } from './route.ts';

const signedQuery = z.object({
  key: z.string().meta({ description: 'Object key' }),
  expires: z.string().meta({ description: 'Expiry, Unix seconds' }),
  sig: z.string().meta({ description: 'HMAC-SHA256 of the operation, key, expiry, file name, type and disposition' }),
});

const badSignature = errorResponse(403, 'The URL is expired or its signature is wrong');
const binary = { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } };
const tags = ['Storage'];
const localDriver = (ctx: ApiContext) => ctx.store.driver === 'local';
const alreadyUsed = () => conflict('This upload URL has already been used');
const goneMaterial = () => new AppError(404, 'NOT_FOUND', 'The material of this upload URL no longer exists');

/** The local driver's URL check: the operation, key and expiry are what the signature covers. */
function verified(store: LocalStore, op: 'put' | 'get', query: Record<string, unknown>) {
  const result = store.verify(op, query);
  if (!result.ok)
    throw new AppError(
      403,
      'SIGNATURE',
      result.reason === 'expired' ? 'This URL has expired' : 'This URL is not valid',
    );
  return result;
}

/** One body per upload URL: the first complete writer wins. */
const putHandler =
  (ctx: ApiContext, store: LocalStore, maxBytes: number): RequestHandler =>
  async (req, res) => {
    const { key } = verified(store, 'put', req.query);
    const state = await uploadUrlState(ctx, key);
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
      if (err instanceof ObjectExistsError)
        throw err.inFlight ? conflict('Another upload to this URL is in progress') : alreadyUsed();
      if (limiter.exceeded) throw payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes`);
      throw err;
    }
    // Deleted while its body was arriving: nothing owns the object any more, so it must not stay. The connection
    // closed under the request (bytes past its Content-Length, say): the client never hears this 200, so the URL
    // must still take its body, unless a complete has meanwhile made the material own the object.
    const clientHears = () => !(req.socket.destroyed || req.socket.writableEnded);
    const settled = await settleUploadedBody(ctx, key, clientHears);
    if (settled === 'gone') throw goneMaterial();
    if (settled === 'unheard') return;
    res.status(200).json({ key, size });
  };

const getHandler =
  (store: LocalStore): RequestHandler =>
  async (req, res) => {
    const { key, filename, contentType, disposition } = verified(store, 'get', req.query);
    const info = await store.stat(key);
    if (!info) throw new AppError(404, 'NOT_FOUND', 'Object not found');
    res.set('Content-Length', String(info.size));
    // URLs signed before the type was signed: only a text material's text had one.
    const legacyType = filename?.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/octet-stream';
    res.set('Content-Type', contentType ?? legacyType);
    // A client's file shown inline is served from the api's own origin: it runs no script there, and its
    // declared type stands.
    res.set('Content-Security-Policy', 'sandbox');
    res.set('X-Content-Type-Options', 'nosniff');
    if (filename || disposition) res.set('Content-Disposition', contentDisposition(filename, disposition));
    // pipeline, not pipe: a client that goes away must not leave the file open.
    pipeline(await store.get(key), res, () => {});
  };

/**
 * The local-disk driver's signed URLs, standing in for what S3 does with presigned ones: one PUT per upload
 * URL (the first complete writer wins), GETs until expiry. They come ready-made in `uploadUrl`, `s3Url` and `downloadUrl`; clients never build them.
 */
export const storageUrlRoutes: AnyRoute[] = [
  plainRoute({
    method: 'put',
    path: '/storage/put',
    auth: 'none',
    when: localDriver,
    tags,
    summary: 'Upload a file to an upload URL (local-disk driver)',
    description:
      'One body per URL: the first complete PUT wins; another PUT while it runs, or after it, is 409, and so is one after ' +
      '`/upload/complete`. A PUT for a deleted material is 404. With the S3 driver, upload URLs point at the object store instead.',
    request: { query: signedQuery, body: { required: true, content: binary } },
    responses: {
      200: json('Stored', z.strictObject({ key: z.string(), size: z.number().int() })),
      403: badSignature,
      404: errorResponse(404, 'The material of this upload URL was deleted'),
      409: errorResponse(409, 'This upload URL has already been used, or another upload to it is in progress'),
      413: errorResponse(413),
    },
    handler: ({ ctx }) => putHandler(ctx, ctx.store as LocalStore, ctx.config.limits.uploadMaxBytes),
  }),
  plainRoute({
    method: 'get',
    path: '/storage/get',
    auth: 'none',
    when: localDriver,
    tags,
    summary: 'Download an object from a download URL (local-disk driver)',
    request: {
      query: signedQuery.extend({
        filename: z.string().optional(),
        type: z.string().optional().meta({ description: 'The Content-Type served' }),
        disposition: z.enum(['inline', 'attachment']).optional(),
      }),
    },
    responses: {
      200: { description: 'The bytes', content: binary },
      403: badSignature,
      404: errorResponse(404, 'The object does not exist'),
    },
    handler: ({ ctx }) => getHandler(ctx.store as LocalStore),
  }),
];

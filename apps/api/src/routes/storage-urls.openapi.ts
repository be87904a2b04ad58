import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorResponse, json } from '../openapi/common.ts';

const signedQuery = z.object({
  key: z.string().meta({ description: 'Object key' }),
  expires: z.string().meta({ description: 'Expiry, Unix seconds' }),
  sig: z.string().meta({ description: 'HMAC-SHA256 of the operation, key, expiry and file name' }),
});

const badSignature = errorResponse(403, 'The URL is expired or its signature is wrong');

/** These URLs come ready-made in `uploadUrl`, `s3Url` and `downloadUrl`; clients never build them. */
export function documentStorageUrlsRoutes(registry: OpenAPIRegistry): void {
  const common = { tags: ['Storage'], security: [] };
  registry.registerPath({
    ...common,
    method: 'put',
    path: '/storage/put',
    summary: 'Upload a file to an upload URL (local-disk driver)',
    description:
      'One body per URL: the first complete PUT wins; another PUT while it runs, or after it, is 409, and so is one after ' +
      '`/upload/complete`. A PUT for a deleted material is 404. With the S3 driver, upload URLs point at the object store instead.',
    request: {
      query: signedQuery,
      body: { required: true, content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } } },
    },
    responses: {
      200: json('Stored', z.strictObject({ key: z.string(), size: z.number().int() })),
      403: badSignature,
      404: errorResponse(404, 'The material of this upload URL was deleted'),
      409: errorResponse(409, 'This upload URL has already been used, or another upload to it is in progress'),
      413: errorResponse(413),
    },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/storage/get',
    summary: 'Download an object from a download URL (local-disk driver)',
    request: { query: signedQuery.extend({ filename: z.string().optional() }) },
    responses: {
      200: { description: 'The bytes', content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } } },
      403: badSignature,
      404: errorResponse(404, 'The object does not exist'),
    },
  });
}

import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CONTENT_TYPES } from '@quire/extract';
import { materialViewSchema as materialSchema } from '@quire/material';
import { documentApiRoute, errorBodySchema, idempotencyHeader, idParams, json, jsonBody } from '../openapi/common.ts';
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

export { MATERIAL_STATUSES, materialErrorSchema, materialViewSchema as materialSchema } from '@quire/material';

export const materialPageSchema = z
  .strictObject({
    materials: z.array(materialSchema),
    totalCount: z.number().int(),
    page: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'MaterialPage' });

const uploadHandleSchema = z.strictObject({ uploadUrl: z.string(), s3Key: z.string(), materialId: z.string() });

const processingFailedSchema = errorBodySchema
  .extend({ material: materialSchema.optional() })
  .meta({ id: 'ProcessingFailed', description: 'The error body plus the material, now `error` (no material for an Idempotency-Key mismatch)' });

const binaryFile = z.string().meta({ format: 'binary', description: 'The file; its type is decided from its bytes' });
const multipart = (fields: z.ZodObject) => ({
  required: true,
  content: { 'multipart/form-data': { schema: fields.extend({ file: binaryFile }) } },
});

const location = z.object({ Location: z.string().meta({ description: 'URL of `GET /api/v1/materials/{id}`' }) });

/** The three answers of the endpoints that wait for processing. */
const waitResponses = {
  201: json('Processed: the material, `active`', materialSchema),
  202: json('Still processing when `timeoutMs` ran out; processing goes on', materialSchema, location),
  422: json('Processing failed (`message` says why), or the Idempotency-Key was used with a different request', processingFailedSchema),
};

const params = idParams('Material id');
const tags = ['Materials'];

export function documentMaterialsRoutes(registry: OpenAPIRegistry): void {
  const route = (config: Parameters<typeof documentApiRoute>[1]) => documentApiRoute(registry, { tags, ...config });

  route({
    method: 'post',
    path: '/api/v1/materials/upload',
    summary: 'Upload a file',
    description: 'Stores the file and answers at once; processing continues in the background.',
    request: { body: multipart(uploadFieldsSchema), headers: idempotencyHeader },
    responses: { 201: json('The material, `processing`', materialSchema) },
    errors: [400, 404, 409, 413, 415, 422],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/upload/file-and-process',
    summary: 'Upload a file and wait for processing',
    request: { body: multipart(uploadAndWaitFieldsSchema), headers: idempotencyHeader },
    responses: waitResponses,
    errors: [400, 404, 409, 413, 415],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/upload-and-process',
    summary: 'Create from text or a URL and wait for processing',
    description: 'A URL is fetched by the server; a `content.type` that contradicts the fetched bytes is 400.',
    request: { body: jsonBody(createAndWaitSchema), headers: idempotencyHeader },
    responses: waitResponses,
    errors: [400, 404, 409, 413],
  });
  route({
    method: 'post',
    path: '/api/v1/materials',
    summary: 'Create from text or a URL without waiting',
    request: { body: jsonBody(createSchema), headers: idempotencyHeader },
    responses: { 201: json('The material, `processing`', materialSchema) },
    errors: [400, 404, 409, 413, 422],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/upload/url',
    summary: 'Create from a URL without waiting',
    request: { body: jsonBody(urlUploadSchema), headers: idempotencyHeader },
    responses: { 201: json('The material, `processing`', materialSchema) },
    errors: [400, 404, 409, 413, 422],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/upload/url-and-process',
    summary: 'Create from a URL and wait for processing',
    request: { body: jsonBody(urlUploadAndWaitSchema), headers: idempotencyHeader },
    responses: waitResponses,
    errors: [400, 404, 409, 413],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/batch',
    summary: 'Create upload slots',
    description: '`PUT` each file to its `uploadUrl`, then confirm it with `POST /upload/complete`.',
    request: { body: jsonBody(batchSchema), headers: idempotencyHeader },
    responses: {
      201: json('One handle per item, in order', z.array(uploadHandleSchema.extend({ name: z.string() }).meta({ id: 'BatchUploadHandle' }))),
    },
    errors: [400, 404, 409, 413, 415, 422],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/upload/presigned-url',
    summary: 'Create one upload slot',
    request: { body: jsonBody(presignedUploadSchema), headers: idempotencyHeader },
    responses: { 200: json('Where to `PUT` the file', uploadHandleSchema.meta({ id: 'UploadHandle' })) },
    errors: [400, 404, 409, 413, 415, 422],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/upload/complete',
    summary: 'Confirm an uploaded file and start processing',
    description: 'Idempotent: a material already completed is returned unchanged.',
    request: { body: jsonBody(completeSchema) },
    responses: { 200: json('The material, `processing`', materialSchema) },
    errors: [400, 404, 409, 413, 415],
  });
  route({
    method: 'get',
    path: '/api/v1/materials',
    summary: 'List materials, newest first',
    request: { query: listQuerySchema },
    responses: { 200: json('One page', materialPageSchema) },
    errors: [400, 404],
  });
  route({
    method: 'get',
    path: '/api/v1/materials/{id}',
    summary: 'Get a material',
    request: { params },
    responses: { 200: json('The material', materialSchema) },
    errors: [404],
  });
  route({
    method: 'patch',
    path: '/api/v1/materials/{id}',
    summary: 'Replace the references',
    request: { params, body: jsonBody(patchSchema) },
    responses: { 200: json('The material', materialSchema) },
    errors: [400, 404, 413],
  });
  route({
    method: 'delete',
    path: '/api/v1/materials/{id}',
    summary: 'Delete a material and its stored objects',
    request: { params },
    responses: { 200: json('Deleted', z.strictObject({ success: z.literal(true), id: z.string() })) },
    errors: [404],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/search',
    summary: 'Search the extracted text of active materials',
    request: { body: jsonBody(searchSchema) },
    responses: {
      200: json(
        'Ranked passages',
        z
          .strictObject({
            query: z.string(),
            results: z.array(
              z.strictObject({
                score: z.number(),
                text: z.string(),
                chunkIndex: z.number().int(),
                page: z.number().int().optional(),
                chapter: z.number().int().optional(),
                startMs: z.number().optional(),
                endMs: z.number().optional(),
                material: z.strictObject({ id: z.string(), name: z.string(), contentType: z.enum(CONTENT_TYPES) }),
              }),
            ),
            totalResults: z.number().int(),
            filtered: z.boolean(),
            scope: z.strictObject({ materialIds: z.array(z.string()).nullable(), folderIds: z.array(z.string()).nullable() }),
          })
          .meta({ id: 'SearchResults' }),
      ),
    },
    errors: [400, 404, 413],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/bulk/move',
    summary: 'Move several materials into a folder (or out of every folder)',
    request: { body: jsonBody(bulkMoveSchema) },
    responses: { 200: json('All were moved', z.strictObject({ success: z.literal(true), movedCount: z.number().int() })) },
    errors: [400, 404, 413],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/{id}/move',
    summary: 'Move a material into a folder (or out of every folder)',
    request: { params, body: jsonBody(moveSchema) },
    responses: { 200: json('The material', materialSchema) },
    errors: [400, 404, 413],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/{id}/rename',
    summary: 'Rename a material',
    request: { params, body: jsonBody(renameSchema) },
    responses: { 200: json('The material', materialSchema) },
    errors: [400, 404, 413],
  });
  route({
    method: 'post',
    path: '/api/v1/materials/{id}/reprocess',
    summary: 'Run extraction again',
    description: 'The previous result stays until the new one is ready. Only `active` and `error` materials can be reprocessed.',
    request: { params },
    responses: { 200: json('The material, `processing`', materialSchema) },
    errors: [404, 409],
  });
  route({
    method: 'get',
    path: '/api/v1/materials/{id}/download-url',
    summary: 'A time-limited URL of the original file',
    request: { params, query: downloadUrlQuerySchema },
    responses: { 200: json('The URL', z.strictObject({ downloadUrl: z.string() })) },
    errors: [400, 404, 409],
  });
}

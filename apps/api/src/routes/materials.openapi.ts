import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CONTENT_TYPES, EXTRACT_ERROR_CODES } from '@quire/extract';
import { documentApiRoute, isoTimestamp, errorBodySchema, idempotencyHeader, idParams, json, jsonBody } from '../openapi/common.ts';
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
  referenceSchema,
  renameSchema,
  searchSchema,
  uploadAndWaitFieldsSchema,
  uploadFieldsSchema,
  urlUploadAndWaitSchema,
  urlUploadSchema,
} from './materials.schema.ts';

export const MATERIAL_STATUSES = ['pending_upload', 'processing', 'active', 'error', 'deleted'] as const;

export const materialErrorSchema = z
  .looseObject({ code: z.enum(EXTRACT_ERROR_CODES), message: z.string() })
  .meta({ id: 'MaterialError', description: 'Why processing failed (`metadata.error` of a material in `error`)' });

const materialImageSchema = z
  .looseObject({
    id: z.string(),
    s3Key: z.string(),
    s3Url: z.string().optional().meta({ description: 'Time-limited GET URL, minted per response' }),
    page: z.number().int().optional(),
    chapter: z.number().int().optional(),
    timestampMs: z.number().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    format: z.string().optional(),
  })
  .meta({ id: 'MaterialImage' });

export const materialSchema = z
  .strictObject({
    _id: z.string().meta({ example: '01936f0e-7a53-7cc2-9d4e-2b7f6f3c9a10' }),
    name: z.string(),
    organizationId: z.string(),
    folderId: z.string().nullable(),
    contentType: z.enum(CONTENT_TYPES),
    content: z.strictObject({
      text: z.string().optional(),
      url: z.string().optional(),
      s3Key: z.string().optional(),
      s3Url: z.string().optional().meta({ description: 'Time-limited GET URL of the original, minted per response' }),
      filename: z.string().optional(),
      fileSize: z.number().int().optional(),
      mimeType: z.string().optional(),
      etag: z.string().optional().meta({ description: 'The ETag of the original that upload/complete accepted (S3 storage)' }),
    }),
    status: z.enum(MATERIAL_STATUSES),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    metadata: z
      .looseObject({
        progress: z.number().int().min(0).max(100).optional().meta({ description: 'While processing' }),
        error: materialErrorSchema.optional(),
        extractedText: z.string().optional(),
        textKey: z.string().optional().meta({ description: 'Storage key of the text when it is too large to inline' }),
        wordCount: z.number().int().optional(),
        processingMs: z.number().optional(),
        images: z.array(materialImageSchema).optional(),
      })
      .meta({ description: 'Filled by processing; the fields depend on the content type' }),
    usage: z.strictObject({
      storageBytes: z.number().int().meta({ description: 'Bytes held for the original' }),
      derivedBytes: z.number().int().meta({ description: 'Bytes held for what processing made' }),
    }),
    references: z.array(referenceSchema),
  })
  .meta({ id: 'Material' });

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
    description:
      'Passages holding any of the query words, ranked by BM25 of the passage and of its whole material (rare words count ' +
      'more, long texts are normalised), with query words found side by side counting extra. A word none of the ' +
      "organization's passages holds is taken for its most similar one. `\"quoted phrases\"` must occur word for word, " +
      '`-word` must not occur. At most `passagesPerMaterial` passages of one material are returned.',
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
                matchedTerms: z.array(z.string()).meta({
                  description: 'The query words the passage holds (stemmed alike, or the word a misspelling was taken for)',
                }),
                highlights: z
                  .array(z.strictObject({ start: z.number().int(), end: z.number().int() }))
                  .meta({ description: 'Where the matched words are in `text`: JavaScript string offsets, `end` exclusive' }),
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

import { z } from 'zod';
import type { CompleteRefusal, UploadRefusal } from '@quire/lifecycle';
import { materialViewSchema, type Material } from '@quire/material';
import type { ProcessingClass } from '@quire/queue';
import type { ApiContext } from '../context.ts';
import { AppError, badRequest, conflict, notFound, payloadTooLarge, unsupportedType } from '../errors.ts';
import { idParams, json } from '../openapi/common.ts';
import { streamMaterialEvents } from '../services/material-events.ts';
import { materialPageJson, materialViewer } from '../views/material-view.ts';
import * as materials from '../services/materials.service.ts';
import { searchMaterials, type SearchHit } from '../services/search.service.ts';
import { openEventStream } from '../streams/event-stream.ts';
import type { ReceivedUpload } from '../uploads/receive-upload.ts';
import {
  batchSchema,
  bulkMoveSchema,
  completeSchema,
  createAndWaitSchema,
  createSchema,
  deletedSchema,
  downloadUrlQuerySchema,
  listQuerySchema,
  materialPageSchema,
  materialProgressEventSchema,
  materialStatusEventSchema,
  moveSchema,
  patchSchema,
  presignedUploadSchema,
  processingFailedSchema,
  renameSchema,
  searchResultsSchema,
  searchSchema,
  uploadAndWaitFieldsSchema,
  uploadFieldsSchema,
  uploadHandleSchema,
  urlUploadAndWaitSchema,
  urlUploadSchema,
} from './materials.schema.ts';
import { apiRoute, JsonText, type AnyRoute, type Reply, type RouteInput } from './route.ts';

const tags = ['Materials'];
const params = idParams('Material id');
const material = (description: string) => json(description, materialViewSchema);
const location = z.object({ Location: z.string().meta({ description: 'URL of `GET /api/v1/materials/{id}`' }) });

/** The three answers of the endpoints that wait for processing. */
const waitResponses = {
  201: json('Processed: the material, `active`', materialViewSchema),
  202: json('Still processing when `timeoutMs` ran out; processing goes on', materialViewSchema, location),
  422: json(
    'Processing failed (`message` says why), or the Idempotency-Key was used with a different request',
    processingFailedSchema,
  ),
};

const viewOf = (ctx: ApiContext) => materialViewer(ctx.signUrl);

type Input = RouteInput<z.ZodObject, z.ZodObject, z.ZodType>;

/** The lifecycle's refusal of an upload, as the HTTP error the client gets. */
function uploadRefused(refusal: UploadRefusal): AppError {
  switch (refusal.reason) {
    case 'too-large':
      return payloadTooLarge(`The file is larger than the upload limit of ${refusal.maxBytes} bytes`);
    case 'empty':
      return badRequest('The file is empty', [{ field: 'file', message: 'The file is empty' }]);
    case 'unsupported-type':
      return unsupportedType(refusal.message);
    case 'ocr-languages':
      return badRequest(refusal.message, [{ field: 'ocrLanguages', message: refusal.message }]);
    case 'no-folder':
      return notFound('Folder');
  }
}

/** The lifecycle's refusal of the bytes at an upload URL, as the HTTP error the client gets. */
function completeRefused(refusal: CompleteRefusal): AppError {
  switch (refusal.reason) {
    case 'not-uploaded':
      return conflict('The file has not been uploaded to the upload URL yet');
    case 'too-large':
      return payloadTooLarge(`The file is larger than the upload limit of ${refusal.maxBytes} bytes`);
    case 'empty':
      return badRequest('The uploaded file is empty');
    case 'unsupported-type':
      return unsupportedType(refusal.message);
  }
}

/** An uploaded file's material, or the error its refusal is (the receiver removes a file no material owns). */
async function createFromUpload(
  { ctx, principal }: Input,
  upload: ReceivedUpload,
  fields: z.output<typeof uploadFieldsSchema>,
  processingClass: ProcessingClass = 'bulk',
): Promise<Material> {
  const outcome = await materials.uploadFile(ctx, principal.organizationId, {
    upload,
    name: fields.name,
    folderId: fields.folderId ?? null,
    extractImages: fields.extractImages,
    references: fields.references ?? [],
    ocrLanguages: fields.ocrLanguages,
    processingClass,
  });
  if (outcome.status === 'created') return outcome.material;
  throw uploadRefused(outcome);
}

/** A client that waits for processing (`*-and-process`) asks for `interactive`, ahead of its organization's bulk work. */
const createFromContent = (
  { ctx, principal }: Input,
  body: z.output<typeof createSchema>,
  processingClass: ProcessingClass = 'bulk',
) =>
  materials.createFromContent(ctx, principal.organizationId, {
    name: body.name,
    content: body.content,
    folderId: body.folderId ?? null,
    references: body.references ?? [],
    extractImages: body.extractImages ?? true,
    ocrLanguages: body.ocrLanguages,
    processingClass,
  });

const createFromUrl = (
  input: Input,
  body: z.output<typeof urlUploadSchema> & { references?: z.output<typeof patchSchema>['references'] },
  processingClass: ProcessingClass = 'bulk',
) => createFromContent(input, { ...body, content: { url: body.url } }, processingClass);

/** 201 once active, 202 with Location when the wait runs out, 422 (400 for a contradicted claim) on failure. */
async function waitAndReply(
  input: Input,
  created: Material,
  timing: { timeoutMs: number; pollIntervalMs: number },
): Promise<Reply> {
  const { ctx, http } = input;
  // Nothing flows while the request waits on processing; the idle timeout must not cut it short.
  http.req.socket.setTimeout(timing.timeoutMs + ctx.config.server.idleTimeoutMs);
  http.res.once('finish', () => http.req.socket.setTimeout(ctx.config.server.idleTimeoutMs));
  const outcome = await materials.waitForProcessing(ctx, created.organizationId, created.id, timing);
  const body = await viewOf(ctx)(outcome.material);
  if (outcome.kind === 'active') return { status: 201, body };
  if (outcome.kind === 'timeout') {
    return {
      status: 202,
      body,
      headers: { Location: `${ctx.config.server.publicUrl}/api/v1/materials/${created.id}` },
    };
  }
  const { error } = outcome.material.metadata;
  // A URL whose bytes contradict the client's content.type is the client's mistake, not a processing failure.
  const status = error?.claimedType ? 400 : 422;
  return {
    status,
    body: new AppError(status, error?.code ?? 'INTERNAL', error?.message ?? 'Processing failed', undefined, {
      material: body,
    }).toBody(),
  };
}

/** One search hit on the wire: its passage, where it sits in the material, which material, and what matched. */
function toSearchResult(hit: SearchHit) {
  return {
    score: hit.score,
    text: hit.text,
    chunkIndex: hit.chunk_index,
    ...(hit.heading !== null && hit.heading.length > 0 ? { heading: hit.heading } : {}),
    ...(hit.page !== null ? { page: hit.page } : {}),
    ...(hit.slide !== null ? { slide: hit.slide } : {}),
    ...(hit.chapter !== null ? { chapter: hit.chapter } : {}),
    ...(hit.start_ms !== null ? { startMs: hit.start_ms } : {}),
    ...(hit.end_ms !== null ? { endMs: hit.end_ms } : {}),
    ...(hit.box !== null && hit.box.length === 4 ? { box: hit.box } : {}),
    material: { id: hit.material_id, name: hit.material_name, contentType: hit.content_type },
    matchedTerms: hit.matchedTerms,
    highlights: hit.highlights,
  };
}

const ok = (body: unknown): Reply => ({ status: 200, body });

export const materialRoutes: AnyRoute[] = [
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload',
    tags,
    summary: 'Upload a file',
    description: 'Stores the file and answers at once; processing continues in the background.',
    body: { multipart: uploadFieldsSchema },
    idempotent: true,
    responses: { 201: material('The material, `processing`') },
    errors: [400, 404, 409, 413, 415, 422],
    handle: async (input) => ({
      status: 201,
      body: await viewOf(input.ctx)(await createFromUpload(input, input.upload!, input.body)),
    }),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload/file-and-process',
    tags,
    summary: 'Upload a file and wait for processing',
    body: { multipart: uploadAndWaitFieldsSchema },
    idempotent: true,
    responses: waitResponses,
    errors: [400, 404, 409, 413, 415],
    handle: async (input) =>
      waitAndReply(input, await createFromUpload(input, input.upload!, input.body, 'interactive'), input.body),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload-and-process',
    tags,
    summary: 'Create from text or a URL and wait for processing',
    description: 'A URL is fetched by the server; a `content.type` that contradicts the fetched bytes is 400.',
    body: { json: createAndWaitSchema },
    idempotent: true,
    responses: waitResponses,
    errors: [400, 404, 409, 413],
    handle: async (input) => waitAndReply(input, await createFromContent(input, input.body, 'interactive'), input.body),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials',
    tags,
    summary: 'Create from text or a URL without waiting',
    body: { json: createSchema },
    idempotent: true,
    responses: { 201: material('The material, `processing`') },
    errors: [400, 404, 409, 413, 422],
    handle: async (input) => ({
      status: 201,
      body: await viewOf(input.ctx)(await createFromContent(input, input.body)),
    }),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload/url',
    tags,
    summary: 'Create from a URL without waiting',
    body: { json: urlUploadSchema },
    idempotent: true,
    responses: { 201: material('The material, `processing`') },
    errors: [400, 404, 409, 413, 422],
    handle: async (input) => ({ status: 201, body: await viewOf(input.ctx)(await createFromUrl(input, input.body)) }),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload/url-and-process',
    tags,
    summary: 'Create from a URL and wait for processing',
    body: { json: urlUploadAndWaitSchema },
    idempotent: true,
    responses: waitResponses,
    errors: [400, 404, 409, 413],
    handle: async (input) => waitAndReply(input, await createFromUrl(input, input.body, 'interactive'), input.body),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/batch',
    tags,
    summary: 'Create upload slots',
    description: '`PUT` each file to its `uploadUrl`, then confirm it with `POST /upload/complete`.',
    body: { json: batchSchema },
    idempotent: true,
    responses: {
      201: json(
        'One handle per item, in order',
        z.array(uploadHandleSchema.extend({ name: z.string() }).meta({ id: 'BatchUploadHandle' })),
      ),
    },
    errors: [400, 404, 409, 413, 415, 422],
    handle: async ({ ctx, principal, body }) => ({
      status: 201,
      body: await materials.createBatch(ctx, principal.organizationId, body.materials),
    }),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload/presigned-url',
    tags,
    summary: 'Create one upload slot',
    body: { json: presignedUploadSchema },
    idempotent: true,
    responses: { 200: json('Where to `PUT` the file', uploadHandleSchema.meta({ id: 'UploadHandle' })) },
    errors: [400, 404, 409, 413, 415, 422],
    handle: async ({ ctx, principal, body }) =>
      ok(await materials.createPresignedUpload(ctx, principal.organizationId, body)),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/upload/complete',
    tags,
    summary: 'Confirm an uploaded file and start processing',
    description: 'Idempotent: a material already completed is returned unchanged.',
    body: { json: completeSchema },
    responses: { 200: material('The material, `processing`') },
    errors: [400, 404, 409, 413, 415],
    handle: async ({ ctx, principal, body }) => {
      const outcome = await materials.completeUpload(ctx, principal.organizationId, body.materialId, body.s3Key);
      if (outcome.status === 'refused') throw completeRefused(outcome);
      return ok(await viewOf(ctx)(outcome.material));
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/materials',
    tags,
    summary: 'List materials, newest first',
    query: listQuerySchema,
    responses: { 200: json('One page', materialPageSchema) },
    errors: [400, 404],
    handle: async ({ ctx, principal, query }) =>
      ok(new JsonText(materialPageJson(await materials.listMaterials(ctx, principal.organizationId, query)))),
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/materials/{id}',
    tags,
    summary: 'Get a material',
    params,
    responses: { 200: material('The material') },
    errors: [404],
    handle: async ({ ctx, principal, params }) =>
      ok(new JsonText(await materials.getMaterialJson(ctx, principal.organizationId, params.id))),
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/materials/{id}/events',
    tags,
    summary: 'Follow processing live (Server-Sent Events)',
    description: [
      'A `text/event-stream` of `status` messages (data: `MaterialStatusEvent`) and `progress` messages',
      '(data: `MaterialProgressEvent`). The first message is the current status. The stream closes after the',
      'status becomes `active`, `error` or `deleted`; a material already settled gets one message. Comment lines',
      '(`: heartbeat`) keep an idle stream open. Send `x-api-key` like on every endpoint (use a fetch-based SSE',
      "client: the browser's `EventSource` cannot send headers).",
    ].join(' '),
    params,
    responses: {
      200: {
        description:
          "The event stream; the schema is that of one message's `data` (OpenAPI 3.1 cannot describe a stream)",
        content: {
          'text/event-stream': {
            schema: z.union([materialStatusEventSchema, materialProgressEventSchema]),
            example:
              'event: status\ndata: {"_id":"…","status":"processing","progress":5}\n\nevent: progress\ndata: {"_id":"…","progress":50}\n\nevent: status\ndata: {"_id":"…","status":"active"}\n\n',
          },
        },
      },
    },
    errors: [404],
    handle: async ({ ctx, principal, params, http }) => {
      const open = (onHeartbeat: () => void) =>
        openEventStream(http.req, http.res, ctx.config.server.sseHeartbeatMs, onHeartbeat);
      await streamMaterialEvents(ctx, open, principal.organizationId, params.id);
    },
  }),
  apiRoute({
    method: 'patch',
    path: '/api/v1/materials/{id}',
    tags,
    summary: 'Replace the references',
    params,
    body: { json: patchSchema },
    responses: { 200: material('The material') },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, params, body }) =>
      ok(
        await viewOf(ctx)(await materials.updateReferences(ctx, principal.organizationId, params.id, body.references)),
      ),
  }),
  apiRoute({
    method: 'delete',
    path: '/api/v1/materials/{id}',
    tags,
    summary: 'Delete a material and its stored objects',
    params,
    responses: { 200: json('Deleted', deletedSchema) },
    errors: [404],
    handle: async ({ ctx, principal, params }) => {
      await materials.deleteMaterial(ctx, principal.organizationId, params.id);
      return ok({ success: true, id: params.id });
    },
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/search',
    tags,
    summary: 'Search the extracted text of active materials',
    description:
      'Passages holding any of the query words, ranked by BM25 of the passage and of its whole material (rare words count ' +
      'more, long texts are normalised), with query words found side by side counting extra. A word none of the ' +
      'organization\'s passages holds is taken for its most similar one. `"quoted phrases"` must occur word for word, ' +
      '`-word` must not occur. At most `passagesPerMaterial` passages of one material are returned.',
    body: { json: searchSchema },
    responses: { 200: json('Ranked passages', searchResultsSchema) },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, body }) => {
      const { hits, filtered } = await searchMaterials(ctx, principal.organizationId, body);
      const results = hits.map(toSearchResult);
      return ok({
        query: body.query,
        results,
        totalResults: results.length,
        filtered,
        scope: { materialIds: body.materialIds ?? null, folderIds: body.folderIds ?? null },
      });
    },
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/bulk/move',
    tags,
    summary: 'Move several materials into a folder (or out of every folder)',
    body: { json: bulkMoveSchema },
    responses: {
      200: json('All were moved', z.strictObject({ success: z.literal(true), movedCount: z.number().int() })),
    },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, body }) =>
      ok(await materials.bulkMoveMaterials(ctx, principal.organizationId, body.materialIds, body.folderId)),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/{id}/move',
    tags,
    summary: 'Move a material into a folder (or out of every folder)',
    params,
    body: { json: moveSchema },
    responses: { 200: material('The material') },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, params, body }) =>
      ok(await viewOf(ctx)(await materials.moveMaterial(ctx, principal.organizationId, params.id, body.folderId))),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/{id}/rename',
    tags,
    summary: 'Rename a material',
    params,
    body: { json: renameSchema },
    responses: { 200: material('The material') },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, params, body }) =>
      ok(await viewOf(ctx)(await materials.renameMaterial(ctx, principal.organizationId, params.id, body.name))),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/{id}/reprocess',
    tags,
    summary: 'Run extraction again',
    description:
      'The previous result stays until the new one is ready. Only `active` and `error` materials can be reprocessed.',
    params,
    responses: { 200: material('The material, `processing`') },
    errors: [404, 409],
    handle: async ({ ctx, principal, params }) => {
      const outcome = await materials.reprocessMaterial(ctx, principal.organizationId, params.id);
      if (outcome.status === 'not-reprocessable') {
        throw conflict(
          `A material in ${outcome.material.status} cannot be reprocessed; only active or error materials can`,
        );
      }
      if (outcome.status === 'changed') throw conflict('The material changed state meanwhile; read it and try again');
      return ok(await viewOf(ctx)(outcome.material));
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/materials/{id}/download-url',
    tags,
    summary: "A time-limited URL of the material's content",
    description:
      "A file's original, a URL material's fetched bytes (409 until fetched), or a text material's text as " +
      '`text/plain`. 409 while an upload is awaited, or when an S3 original was overwritten after `upload/complete`. ' +
      "The URL serves the original's `content.mimeType` (`application/pdf`, ...) with `Content-Disposition: inline` and " +
      'its file name (RFC 6266, RFC 5987 past ASCII), so a browser or viewer shows it; `download=1` makes it an `attachment`.',
    params,
    query: downloadUrlQuerySchema,
    responses: { 200: json('The URL', z.strictObject({ downloadUrl: z.string() })) },
    errors: [400, 404, 409],
    handle: async ({ ctx, principal, params, query }) =>
      ok({
        downloadUrl: await materials.downloadUrl(ctx, principal.organizationId, params.id, {
          expiresInSeconds: query.expiresIn,
          disposition: query.download ? 'attachment' : 'inline',
        }),
      }),
  }),
];

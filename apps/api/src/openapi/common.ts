import type { OpenAPIRegistry, OpenApiGeneratorV31, ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

export const API_KEY_SCHEME = 'ApiKey';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** The one error body every endpoint answers with (NestJS-compatible, as the public service returns). */
export const errorBodySchema = z
  .object({
    statusCode: z.number().int().meta({ example: 400 }),
    error: z.string().meta({ description: 'The HTTP reason phrase', example: 'Bad Request' }),
    message: z.string().meta({ description: 'What went wrong, naming the field when one is at fault' }),
    details: z
      .array(z.object({ field: z.string().optional(), message: z.string() }))
      .optional()
      .meta({ description: 'One entry per invalid field' }),
  })
  .meta({ id: 'ErrorBody' });

/** Missing, unknown and revoked keys all get this, with the same latency. */
export const unauthorizedSchema = z.strictObject({ error: z.literal('Unauthorized') }).meta({ id: 'Unauthorized' });

export { isoTimestamp } from '@quire/material';

export const idParams = (description: string) => z.object({ id: z.string().min(1).meta({ description }) });

export const json = (description: string, schema: z.ZodType, headers?: ResponseConfig['headers']): ResponseConfig => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers ? { headers } : {}),
});

export const jsonBody = (schema: z.ZodType, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

const ERRORS: Record<number, string> = {
  400: 'The request is invalid; `message` and `details` name the field',
  404: 'Not found (also when it belongs to another organization)',
  406: 'The `Accept` header takes none of the media types this endpoint serves',
  409: 'The resource is in a state that does not allow this',
  413: 'The body, the file or a field is larger than the configured limit',
  415: 'The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding',
  422: 'The Idempotency-Key was already used with a different request',
  429: 'Rate limited: see the `RateLimit` and `RateLimit-Policy` headers',
  501: 'Not provided by quire (the message says why and what to use instead)',
  503: 'Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds',
};

export const errorResponse = (status: number, description = ERRORS[status] ?? 'Error'): ResponseConfig =>
  json(description, errorBodySchema);

const unauthorized = json('Missing, unknown or revoked `x-api-key`', unauthorizedSchema);

export interface ApiRoute extends Omit<RouteConfig, 'responses'> {
  responses: Record<number, ResponseConfig>;
  /** Statuses answered with the error body besides those every `/api` route can answer (API_ERRORS). */
  errors?: number[];
}

/**
 * What any `/api` request can get whatever its route: a body that is not JSON (400), too large (413) or
 * in an unknown encoding (415) is refused before routing, and the key, rate and dependency checks apply.
 */
const API_ERRORS = [400, 413, 415, 429, 503];

/** Documents an authenticated `/api` route: the key scheme and the answers every such route can give. */
export function documentApiRoute(registry: OpenAPIRegistry, { errors = [], responses, ...route }: ApiRoute): void {
  const answers: Record<number, ResponseConfig> = { ...responses, 403: unauthorized };
  for (const status of [...errors, ...API_ERRORS].sort()) answers[status] ??= errorResponse(status);
  registry.registerPath({ ...route, security: [{ [API_KEY_SCHEME]: [] }], responses: answers });
}

/** Headers of a creating endpoint that honours `Idempotency-Key`. */
export const idempotencyHeader = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().meta({
    description: 'Repeat a creating request safely: the same key and request get the first response again for 24 hours',
  }),
});

const binaryFile = z.string().meta({ format: 'binary', description: 'The file; its type is decided from its bytes' });

/** A multipart form of these fields and one `file`. */
export const multipartBody = (fields: z.ZodObject) => ({
  required: true,
  content: { 'multipart/form-data': { schema: fields.extend({ file: binaryFile }) } },
});

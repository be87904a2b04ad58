import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { ApiContext } from '../context.ts';
import type { OpenApiDocument } from '../openapi/common.ts';
import type { ReceivedUpload } from '../uploads/receive-upload.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A body already serialized as JSON, sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** What a handler answers; the router sends it (and stores it for an `Idempotency-Key`). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The body a route takes: JSON, or a multipart form whose one file is streamed into storage first. */
export type BodyDeclaration<B extends z.ZodType> = { json: B } | { multipart: B & z.ZodObject };

export interface RouteInput<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType> {
  ctx: ApiContext;
  /** The key's organization and group. */
  principal: Principal;
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** The stored file of a multipart route. */
  upload?: ReceivedUpload;
  /** The exchange itself, for what only HTTP has: an event stream, the socket's idle timeout. */
  http: { req: Request; res: Response };
}

interface Documentation {
  tags: string[];
  summary: string;
  description?: string;
  responses: Record<number, ResponseConfig>;
  /** Error-body statuses besides those every `/api` route can answer (see `openapi/common.ts`). */
  errors?: number[];
}

/**
 * One endpoint, declared once: the Express router (`routes/router.ts`) and the OpenAPI document
 * (`openapi/document.ts`) are both derived from these, so the two cannot disagree.
 */
export interface ApiRoute<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
> extends Documentation {
  method: Method;
  /** OpenAPI-style: `/api/v1/materials/{id}`. */
  path: string;
  /** Every `/api` route takes `x-api-key` (checked before routing, see app.ts). */
  auth: 'apiKey';
  /** Checks the key may use this route at all, before anything of the request is read. */
  authorize?: (principal: Principal) => void;
  params?: P;
  query?: Q;
  body?: BodyDeclaration<B>;
  /** What an invalid query or body becomes, for the endpoints whose 400 has its own shape. */
  invalid?: (error: z.ZodError, part: 'query' | 'body') => Error;
  /** Honours `Idempotency-Key`: a retry gets the first reply again (see services/idempotency.ts). */
  idempotent?: boolean;
  /** Answers with `Reply`, or writes the response itself (an event stream) and resolves to nothing. */
  handle(input: RouteInput<P, Q, B>): Promise<Reply | void>;
}

/** A route outside `/api` served by a plain handler: operations, documentation, the local driver's URLs. */
export interface PlainRoute extends Documentation {
  method: Method;
  path: string;
  auth: 'none' | 'metricsToken';
  request?: RouteConfig['request'];
  /** Mounted only when this holds (the local-disk driver's URLs). */
  when?: (ctx: ApiContext) => boolean;
  handler(deps: { ctx: ApiContext; document: OpenApiDocument }): RequestHandler;
}

export type AnyRoute = ApiRoute | PlainRoute;

/** No parameters or query declared: an empty object. */
type Nothing = z.ZodObject<Record<never, never>>;

/** Declares an `/api` route; the schemas type the handler's input. */
export function apiRoute<
  P extends z.ZodObject = Nothing,
  Q extends z.ZodObject = Nothing,
  B extends z.ZodType = z.ZodNever,
>(route: Omit<ApiRoute<P, Q, B>, 'auth'>): AnyRoute {
  return { auth: 'apiKey', ...route } as unknown as AnyRoute;
}

export const plainRoute = (route: PlainRoute): AnyRoute => route;

export const isApiRoute = (route: AnyRoute): route is ApiRoute => route.auth === 'apiKey';

/** `/api/v1/materials/{id}` -> `/api/v1/materials/:id`. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

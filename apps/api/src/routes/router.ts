import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import type { OpenApiDocument } from '../openapi/common.ts';
import { badRequest, conflict } from '../errors.ts';
import { fingerprintOf, idempotent, isReplay } from '../services/idempotency.ts';
import { uploadReceiver, type ReceivedUpload } from '../uploads/receive-upload.ts';
import { queryProblems } from './query-checks.ts';
import { textProblems } from './text-checks.ts';
import { routeFinder, type RouteMatch } from './route-finder.ts';
import { isApiRoute, JsonText, type AnyRoute, type ApiRoute, type Reply } from './route.ts';

/**
 * The router of a route table, as two middlewares: `match` finds each request's route once, first (so that
 * metrics and the api_call record file a refused request under its route too), and `dispatch`, after the api's
 * key and rate checks, answers it: each declaration's schemas parse its request, its handler answers, and the
 * router sends the reply (through `Idempotency-Key` handling when the route declares it). A request of no
 * route, or of a route switched off here (`when`), goes on to the 404.
 */
export function routerFor(
  ctx: ApiContext,
  routes: readonly AnyRoute[],
  document: OpenApiDocument,
): { match: RequestHandler; dispatch: RequestHandler & { served: readonly AnyRoute[] } } {
  const findRoute = routeFinder(routes);
  const receiveUpload = uploadReceiver(ctx);
  const handlers = new Map<AnyRoute, RequestHandler>();
  for (const route of routes) {
    if (isApiRoute(route)) handlers.set(route, (req, res) => serve(ctx, route, receiveUpload, req, res));
    else if (route.when?.(ctx) ?? true) handlers.set(route, route.handler({ ctx, document }));
  }
  const dispatch: RequestHandler = (req, res, next) => {
    const match = res.locals.route as RouteMatch | undefined;
    const handler = match && handlers.get(match.route);
    if (!handler) return next(undecodable(req.path));
    req.params = match.params;
    return handler(req, res, next);
  };
  return {
    match(req, res, next) {
      res.locals.route = findRoute(req.method, req.path);
      next();
    },
    // The routes it serves, for the check that the app serves exactly what the OpenAPI document describes.
    dispatch: Object.assign(dispatch, { served: [...handlers.keys()] }),
  };
}

/** Express answers 400 for a path it cannot percent-decode; the radix tree finds no route for it. */
function undecodable(path: string) {
  if (!path.includes('%')) return undefined;
  try {
    decodeURIComponent(path);
    return undefined;
  } catch {
    return badRequest('The request path is not validly percent-encoded');
  }
}

async function serve(
  ctx: ApiContext,
  route: ApiRoute,
  receiveUpload: ReturnType<typeof uploadReceiver>,
  req: Request,
  res: Response,
): Promise<void> {
  const principal = principalOf(req);
  route.authorize?.(principal);
  const parse = <S extends z.ZodType>(schema: S | undefined, value: unknown, part?: 'query' | 'body'): z.output<S> => {
    if (!schema) return undefined as z.output<S>;
    // Before and after the schema: a multipart field can hold JSON (references) that the schema parses.
    const problems = part === 'body' ? textProblems(value) : null;
    if (problems) throw route.invalid ? route.invalid(problems, 'body') : problems;
    const parsed = schema.safeParse(value);
    const parsedProblems = parsed.success && part === 'body' ? textProblems(parsed.data) : null;
    if (parsedProblems) throw route.invalid ? route.invalid(parsedProblems, 'body') : parsedProblems;
    if (parsed.success) return parsed.data;
    throw part && route.invalid ? route.invalid(parsed.error, part) : parsed.error;
  };
  const params = parse(route.params, req.params);
  const problems = queryProblems(req.query, route.query);
  if (problems) throw route.invalid ? route.invalid(problems, 'query') : problems;
  const query = parse(route.query, req.query, 'query');

  const answer = async (body: unknown, upload: ReceivedUpload | undefined, fingerprinted: unknown[]) => {
    const input = { ctx, principal, params, query, body, upload, http: { req, res } };
    if (!route.idempotent) return route.handle(input);
    const run = async (): Promise<Reply> => {
      // Its key was released (the first request failed) between the look that found it and the claim: the file
      // was not stored, so this request cannot make the material; a retry stores it.
      if (upload && !upload.stored) throw conflict('A request with this Idempotency-Key is still in progress');
      const reply = await route.handle(input);
      if (!reply) throw new Error(`${route.method} ${route.path} wrote its own response but is declared idempotent`);
      return reply;
    };
    const request = {
      organizationId: principal.organizationId,
      key: req.get('idempotency-key'),
      // The declared path, not the requested one: `/materials` and `/materials/` are the same request.
      fingerprint: fingerprintOf(`${req.method} ${route.path}`, ...(route.params ? [params] : []), ...fingerprinted),
    };
    return idempotent(ctx, request, run);
  };

  let reply: Reply | void;
  if (route.body && 'multipart' in route.body) {
    const fields = route.body.multipart;
    // The file is stored first (it arrives before or between the fields); the receiver removes it afterwards
    // unless a material owns it. A replay's file is only hashed: its answer is already stored under its key.
    const replay =
      route.idempotent === true && (await isReplay(ctx, principal.organizationId, req.get('idempotency-key')));
    reply = await receiveUpload(
      req,
      res,
      principal.organizationId,
      (upload) => {
        const body = parse(fields, req.body ?? {}, 'body');
        const { filename, mimeType, size, sha256 } = upload.file;
        // The file's name and claimed type are what the material is named and typed by: part of the request too.
        return answer(body, upload, [body, filename, mimeType, size, sha256]);
      },
      { store: !replay },
    );
  } else if (route.body) {
    reply = await answer(parse(route.body.json, req.body ?? {}, 'body'), undefined, [req.body]);
  } else {
    reply = await answer(undefined, undefined, []);
  }
  if (reply) send(res, reply);
}

function send(res: Response, reply: Reply): void {
  if (reply.headers) res.set(reply.headers);
  if (reply.body instanceof JsonText) res.status(reply.status).type('json').send(reply.body.text);
  else res.status(reply.status).json(reply.body);
}

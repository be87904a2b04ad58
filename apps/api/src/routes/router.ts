import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import type { OpenApiDocument } from '../openapi/common.ts';
import { conflict } from '../errors.ts';
import { fingerprintOf, idempotent, isReplay } from '../services/idempotency.ts';
import { uploadReceiver, type ReceivedUpload } from '../uploads/receive-upload.ts';
import { queryProblems } from './query-checks.ts';
import { textProblems } from './text-checks.ts';
import { expressPath, isApiRoute, JsonText, type AnyRoute, type ApiRoute, type Reply } from './route.ts';

/**
 * The Express router of a route table: each declaration's schemas parse its request, its handler answers,
 * and the router sends the reply (through `Idempotency-Key` handling when the route declares it).
 */
export function routerFor(ctx: ApiContext, routes: readonly AnyRoute[], document: OpenApiDocument): Router {
  const router = Router();
  const receiveUpload = uploadReceiver(ctx);
  for (const route of inMatchingOrder(routes)) {
    const path = expressPath(route.path);
    if (isApiRoute(route)) router[route.method](path, (req, res) => serve(ctx, route, receiveUpload, req, res));
    else if (route.when?.(ctx) ?? true) router[route.method](path, route.handler({ ctx, document }));
  }
  return router;
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

/**
 * Express tries routes in the order they were added; sorting puts a literal segment before a parameter at
 * the same place, so `/materials/bulk/move` is not taken for `/materials/{id}/move` whatever the table's order.
 */
function inMatchingOrder(routes: readonly AnyRoute[]): AnyRoute[] {
  const segments = (route: AnyRoute) => route.path.split('/').map((s) => (s.startsWith('{') ? null : s));
  const compare = (a: AnyRoute, b: AnyRoute) => {
    const [x, y] = [segments(a), segments(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] === y[i]) continue;
      if (x[i] === null) return 1;
      if (y[i] === null) return -1;
      return x[i]! < y[i]! ? -1 : 1;
    }
    return x.length - y.length;
  };
  return [...routes].sort(compare);
}

import { z } from 'zod';
import { pingDatabase } from '@quire/db';
import { metricsHandler } from '@quire/metrics';
import { json } from '../openapi/common.ts';
import { DOCS_PAGE_HEADERS, DOCS_PAGE } from './docs.ts';
import { plainRoute, type AnyRoute } from './route.ts';

const tags = ['Operations'];
const text = (description: string, mediaType = 'text/plain') => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

const CHECK_TIMEOUT_MS = 2_000;
const withTimeout = <T>(promise: Promise<T>) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
  ]);

const readiness = z.strictObject({
  status: z.enum(['ready', 'not ready']),
  checks: z
    .record(z.string(), z.string())
    .meta({ description: '`ok` or `unavailable: <reason>` for postgres, redis and storage' }),
});

/** Health, metrics and this documentation: no API key. */
export const operationsRoutes: AnyRoute[] = [
  plainRoute({
    method: 'get',
    path: '/healthz',
    auth: 'none',
    tags,
    summary: 'Liveness: the process answers',
    responses: { 200: json('Alive', z.strictObject({ status: z.literal('ok') })) },
    handler: () => (_req, res) => {
      res.json({ status: 'ok' });
    },
  }),
  plainRoute({
    method: 'get',
    path: '/readyz',
    auth: 'none',
    tags,
    summary: 'Readiness: Postgres, Redis and storage answer',
    responses: { 200: json('Ready', readiness), 503: json('A dependency is down; `checks` names it', readiness) },
    handler:
      ({ ctx }) =>
      async (_req, res) => {
        const checks: Record<string, () => Promise<unknown>> = {
          postgres: () => pingDatabase(ctx.db),
          redis: () => ctx.redis.ping(),
          storage: () => ctx.store.ping(),
        };
        const results = await Promise.all(
          Object.entries(checks).map(async ([name, check]) => {
            try {
              await withTimeout(check());
              return [name, 'ok'] as const;
            } catch (err) {
              return [name, `unavailable: ${(err as Error).message}`] as const;
            }
          }),
        );
        const ready = results.every(([, status]) => status === 'ok');
        res
          .status(ready ? 200 : 503)
          .json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
      },
  }),
  plainRoute({
    method: 'get',
    path: '/metrics',
    auth: 'metricsToken',
    tags,
    summary: "The api process's Prometheus metrics",
    description:
      'HTTP latency by route template and status, queue depth by state, and process metrics. Each worker serves its own (job durations, extraction failures) on `WORKER_METRICS_PORT`.',
    responses: {
      200: text('Prometheus text exposition format', 'text/plain; version=0.0.4'),
      401: json(
        '`METRICS_TOKEN` is set and the request does not carry it',
        z.strictObject({ error: z.literal('Unauthorized') }),
      ),
    },
    handler: ({ ctx }) => metricsHandler(ctx.metrics.registry, ctx.config.server.metricsToken),
  }),
  plainRoute({
    method: 'get',
    path: '/openapi.json',
    auth: 'none',
    tags,
    summary: 'This document (OpenAPI 3.1)',
    responses: {
      200: {
        description: 'The OpenAPI document',
        content: { 'application/json': { schema: z.looseObject({ openapi: z.string() }) } },
      },
    },
    handler:
      ({ document }) =>
      (_req, res) => {
        res.json(document);
      },
  }),
  plainRoute({
    method: 'get',
    path: '/docs',
    auth: 'none',
    tags,
    summary: 'Interactive reference of this document',
    responses: { 200: text('An HTML page', 'text/html') },
    handler: () => (_req, res) => {
      res.set(DOCS_PAGE_HEADERS).type('html').send(DOCS_PAGE);
    },
  }),
];

import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { json } from '../openapi/common.ts';

const METRICS_TOKEN_SCHEME = 'MetricsToken';
const tags = ['Operations'];
const text = (description: string, mediaType = 'text/plain') => ({ description, content: { [mediaType]: { schema: z.string() } } });

export function documentOperationsRoutes(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', METRICS_TOKEN_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'Only when `METRICS_TOKEN` is set',
  });
  const open = { tags, security: [] };

  registry.registerPath({
    ...open,
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    responses: { 200: json('Alive', z.strictObject({ status: z.literal('ok') })) },
  });
  const readiness = z.strictObject({
    status: z.enum(['ready', 'not ready']),
    checks: z.record(z.string(), z.string()).meta({ description: '`ok` or `unavailable: <reason>` for postgres, redis and storage' }),
  });
  registry.registerPath({
    ...open,
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: Postgres, Redis and storage answer',
    responses: { 200: json('Ready', readiness), 503: json('A dependency is down; `checks` names it', readiness) },
  });
  registry.registerPath({
    tags,
    security: [{}, { [METRICS_TOKEN_SCHEME]: [] }],
    method: 'get',
    path: '/metrics',
    summary: "The api process's Prometheus metrics",
    description:
      'HTTP latency by route template and status, queue depth by state, and process metrics. Each worker serves its own (job durations, extraction failures) on `WORKER_METRICS_PORT`.',
    responses: {
      200: text('Prometheus text exposition format', 'text/plain; version=0.0.4'),
      401: json('`METRICS_TOKEN` is set and the request does not carry it', z.strictObject({ error: z.literal('Unauthorized') })),
    },
  });
  registry.registerPath({
    ...open,
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document', content: { 'application/json': { schema: z.looseObject({ openapi: z.string() }) } } } },
  });
  registry.registerPath({
    ...open,
    method: 'get',
    path: '/docs',
    summary: 'Interactive reference of this document',
    responses: { 200: text('An HTML page', 'text/html') },
  });
}

import { Histogram, type Registry } from 'prom-client';
import { createRegistry, registerQueueDepth } from '@quire/metrics';
import type { MaterialsQueue, WebhooksQueue } from '@quire/queue';

export interface ApiMetrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
}

export function createApiMetrics(queues: (MaterialsQueue | WebhooksQueue)[]): ApiMetrics {
  const registry = createRegistry('api');
  registerQueueDepth(registry, queues);
  const httpRequestDuration = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time from request to the end of its response, by documented route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    // Uploads and the *-and-process waits run for minutes, so the buckets reach far.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600],
    registers: [registry],
  });
  return { registry, httpRequestDuration };
}

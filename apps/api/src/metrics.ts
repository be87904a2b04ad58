import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createRegistry, registerOrganizationQueueDepth, registerQueueDepth } from '@quire/metrics';
import { queuedByOrganization, type MaterialsQueue, type WebhooksQueue } from '@quire/queue';

export interface ApiMetrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  keyLookups: Counter<'source'>;
  keyRevocationsHeard: Gauge;
}

export function createApiMetrics(
  materials: MaterialsQueue,
  webhooks: WebhooksQueue,
  settings: { topOrganizations: number },
): ApiMetrics {
  const registry = createRegistry('api');
  registerQueueDepth(registry, [...materials.lanes(), webhooks]);
  registerOrganizationQueueDepth(registry, () => queuedByOrganization(materials), settings.topOrganizations);
  const httpRequestDuration = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time from request to the end of its response, by documented route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    // Uploads and the *-and-process waits run for minutes, so the buckets reach far.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600],
    registers: [registry],
  });
  const keyLookups = new Counter({
    name: 'quire_api_key_lookups_total',
    help: "API keys resolved, by where the row came from: this process's cache or Postgres",
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const keyRevocationsHeard = new Gauge({
    name: 'quire_api_key_revocations_listening',
    help: '1 while this process hears key revocations (and so may answer from its key cache), else 0',
    registers: [registry],
  });
  return { registry, httpRequestDuration, keyLookups, keyRevocationsHeard };
}

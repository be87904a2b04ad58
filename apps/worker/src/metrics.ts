import { Counter, Histogram, type Registry } from 'prom-client';
import { createRegistry } from '@quire/metrics';

export interface WorkerMetrics {
  registry: Registry;
  jobDuration: Histogram<'content_type' | 'outcome'>;
  extractionFailures: Counter<'code'>;
  webhookAttempts: Counter<'outcome'>;
}

export function createWorkerMetrics(): WorkerMetrics {
  const registry = createRegistry('worker');
  return {
    registry,
    jobDuration: new Histogram({
      name: 'quire_job_duration_seconds',
      help: 'Time one processing attempt took, by content type and outcome (active, error, skipped, or retry when the attempt threw)',
      labelNames: ['content_type', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    extractionFailures: new Counter({
      name: 'quire_extraction_failures_total',
      help: 'Materials that ended `error`, by metadata.error.code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'quire_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}

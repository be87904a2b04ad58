import type { ServiceConfig } from '@quire/config';
import { createInfra, type Infra, type InfraOverrides } from '@quire/infra';
import { createWorkerMetrics, type WorkerMetrics } from './metrics.ts';

export interface WorkerContext extends Infra {
  metrics: WorkerMetrics;
}

/** Builds everything a worker process uses once; tests pass their own pieces through `overrides`. */
export async function createWorkerContext(
  config: ServiceConfig,
  overrides: InfraOverrides = {},
): Promise<WorkerContext> {
  const infra = await createInfra(config, { name: 'worker', redisRole: 'worker' }, overrides);
  return { ...infra, metrics: createWorkerMetrics() };
}

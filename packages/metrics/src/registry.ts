import { collectDefaultMetrics, Registry } from 'prom-client';

/** One registry per process (never prom-client's global one), with Node's process metrics. */
export function createRegistry(processName: 'api' | 'worker'): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ process: processName });
  collectDefaultMetrics({ register: registry, prefix: 'quire_' });
  return registry;
}

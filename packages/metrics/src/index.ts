export { createRegistry } from './registry.ts';
export { bearerMatches, metricsHandler, secretsEqual } from './metrics-endpoint.ts';
export { registerQueueDepth } from './queue-depth.ts';

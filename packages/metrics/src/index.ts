export { createRegistry } from './registry.ts';
export { bearerMatches, metricsHandler, secretsEqual } from './metrics-endpoint.ts';
export { registerQueueDepth } from './queue-depth.ts';
export { registerOrganizationQueueDepth, type OrganizationDepthReading } from './organization-queue-depth.ts';

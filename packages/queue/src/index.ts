export * from './jobs.ts';
export { createRedis } from './connection.ts';
export { createMaterialsQueue, enqueueMaterial, cancelMaterialJob, type MaterialsQueue } from './materials-queue.ts';
export { CompletionWaiter } from './completion-waiter.ts';

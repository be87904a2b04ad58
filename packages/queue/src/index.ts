export * from './jobs.ts';
export { createRedis } from './connection.ts';
export { createMaterialsQueue, enqueueMaterial, cancelMaterialJob, type MaterialsQueue } from './materials-queue.ts';
export { createWebhooksQueue, enqueueDeliveries, requeueDelivery, type WebhooksQueue } from './webhooks-queue.ts';
export { CompletionWaiter, type JobEvent } from './completion-waiter.ts';

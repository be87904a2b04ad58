export * from './jobs.ts';
export { createRedis } from './connection.ts';
export {
  addChunkJobs,
  cancelMaterialJob,
  chunkJobId,
  createMaterialsQueue,
  enqueueMaterial,
  type MaterialsQueue,
} from './materials-queue.ts';
export { createWebhooksQueue, enqueueDeliveries, requeueDelivery, type WebhooksQueue } from './webhooks-queue.ts';
export { CompletionWaiter, type JobEvent } from './completion-waiter.ts';
export {
  CANCEL_REASON,
  cancelChannel,
  publishCancel,
  removeJobs,
  subscribeToCancels,
  type CancelRequest,
  type CancelSubscription,
} from './cancel-channel.ts';

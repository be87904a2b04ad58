export * from './jobs.ts';
export { createRedis } from './connection.ts';
export {
  addChunkJobs,
  cancelMaterialJob,
  chunkJobId,
  createMaterialsQueue,
  enqueueMaterial,
  findMaterialJob,
  MaterialsQueue,
  type EnqueueOptions,
} from './materials-queue.ts';
export {
  MAX_PRIORITY,
  pendingPosition,
  queuedByOrganization,
  type FairShareSettings,
  type OrganizationDepth,
  type PendingPosition,
  type ProcessingClass,
} from './fair-share.ts';
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

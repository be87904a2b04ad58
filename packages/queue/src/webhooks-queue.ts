import { Queue, type ConnectionOptions } from 'bullmq';
import { WEBHOOKS_QUEUE, type JobMap } from './jobs.ts';

export type WebhooksQueue = Queue<JobMap['deliver-webhook'], unknown, 'deliver-webhook'>;

export interface WebhookQueueSettings {
  prefix: string;
  /** Attempts per delivery; the wait before attempt n+1 is backoffMs * 2^(n-1). */
  attempts: number;
  backoffMs: number;
}

export function createWebhooksQueue(connection: ConnectionOptions, settings: WebhookQueueSettings): WebhooksQueue {
  return new Queue(WEBHOOKS_QUEUE, {
    connection,
    prefix: settings.prefix,
    defaultJobOptions: {
      attempts: settings.attempts,
      backoff: { type: 'exponential', delay: settings.backoffMs },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
    },
  });
}

/** The delivery id is the job id, so enqueueing a delivery that is already queued is a no-op. */
export async function enqueueDeliveries(queue: WebhooksQueue, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await queue.addBulk(
    deliveryIds.map((deliveryId) => ({
      name: 'deliver-webhook' as const,
      data: { deliveryId },
      opts: { jobId: deliveryId },
    })),
  );
}

/** Puts a delivery whose job was lost (Redis flushed) back in the queue; a finished job is replaced. */
export async function requeueDelivery(queue: WebhooksQueue, deliveryId: string): Promise<boolean> {
  const existing = await queue.getJob(deliveryId);
  if (existing) {
    const state = await existing.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return false;
    await existing.remove();
  }
  await enqueueDeliveries(queue, [deliveryId]);
  return true;
}

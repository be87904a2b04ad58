import type { Redis } from 'ioredis';
import { createRedis } from './connection.ts';
import { findMaterialJob, type MaterialsQueue } from './materials-queue.ts';

/**
 * Cancelling a running job reaches the worker that runs it, on whatever machine, through one Redis pub/sub channel
 * per queue prefix: BullMQ's `worker.cancelJob` aborts a job only in the process that runs it, so every worker
 * subscribes and cancels the listed jobs it happens to run (for the others the message is a no-op).
 */
export interface CancelRequest {
  materialId: string;
  /** The material's own job and its chunk jobs. */
  jobIds: string[];
}

/** What a worker gives `worker.cancelJob`, so that a processor can tell a cancel from any other abort. */
export const CANCEL_REASON = 'cancelled on request';

export const cancelChannel = (queuePrefix: string) => `${queuePrefix}:materials:cancel`;

/** Resolves with the number of worker processes that heard it. */
export function publishCancel(redis: Redis, queuePrefix: string, request: CancelRequest): Promise<number> {
  return redis.publish(cancelChannel(queuePrefix), JSON.stringify(request));
}

export interface CancelSubscription {
  /** Resolves once the subscription is in place. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Listens on its own connection (a subscribed connection can do nothing else); ioredis resubscribes after a reconnect. */
export function subscribeToCancels(
  redisUrl: string,
  queuePrefix: string,
  onCancel: (request: CancelRequest) => void,
  onError: (err: Error) => void,
): CancelSubscription {
  const redis = createRedis(redisUrl, 'worker');
  redis.on('error', onError);
  const channel = cancelChannel(queuePrefix);
  redis.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    try {
      const parsed = JSON.parse(message) as Partial<CancelRequest>;
      if (typeof parsed.materialId === 'string' && Array.isArray(parsed.jobIds))
        onCancel({ materialId: parsed.materialId, jobIds: parsed.jobIds.filter((id) => typeof id === 'string') });
    } catch (err) {
      onError(err as Error);
    }
  });
  const ready = redis.subscribe(channel).then(() => undefined);
  ready.catch(onError);
  return {
    ready,
    async close() {
      redis.disconnect();
    },
  };
}

const REMOVABLE = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed']);

/**
 * Removes the listed jobs, waiting for the running ones to stop (a cancelled job ends within moments) until
 * `settleMs` has passed. A job that is still active then belongs to a worker that did not hear the cancel (it died,
 * say): its lock runs out, it is run again and finds its material settled. Resolves with the ids still left.
 */
export async function removeJobs(queue: MaterialsQueue, jobIds: string[], settleMs: number): Promise<string[]> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    const left: string[] = [];
    for (const id of jobIds) {
      const job = await findMaterialJob(queue, id);
      if (!job) continue;
      const state = await job.getState();
      if (state === 'unknown') continue;
      if (!REMOVABLE.has(state)) {
        left.push(id);
        continue;
      }
      // A parent whose child is still running, or a job taken by a worker meanwhile, refuses: tried again below.
      await job.remove().catch(() => left.push(id));
    }
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

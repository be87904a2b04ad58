import { Queue, type ConnectionOptions } from 'bullmq';
import { MATERIALS_QUEUE, type JobMap } from './jobs.ts';

export type MaterialsQueue = Queue<JobMap['process-material'], unknown, 'process-material'>;

export interface QueueSettings {
  prefix: string;
  attempts: number;
}

export function createMaterialsQueue(connection: ConnectionOptions, settings: QueueSettings): MaterialsQueue {
  return new Queue(MATERIALS_QUEUE, {
    connection,
    prefix: settings.prefix,
    defaultJobOptions: {
      attempts: settings.attempts,
      backoff: { type: 'exponential', delay: 2_000 },
      // Kept briefly so a waiter that subscribes late can still see the outcome; never `true` (bullmq #2341).
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600, count: 5000 },
    },
  });
}

/**
 * The material id is the job id, so enqueueing twice is a no-op while a job exists. A finished job with
 * the same id is removed first so that reprocessing and the sweeper can run the material again.
 * `finishingMs`: how long to wait for a job that is still `active` to finish first. Reprocessing needs it:
 * a job stays `active` for a moment after its last write made the material `active`, and skipping the
 * enqueue then would leave the material to the sweeper.
 */
export async function enqueueMaterial(
  queue: MaterialsQueue,
  materialId: string,
  options: { finishingMs?: number } = {},
): Promise<void> {
  const existing = await queue.getJob(materialId);
  if (existing) {
    const deadline = Date.now() + (options.finishingMs ?? 0);
    let state = await existing.getState();
    while (state === 'active' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await existing.getState();
    }
    if (state === 'completed' || state === 'failed') await existing.remove();
    else return;
  }
  await queue.add('process-material', { materialId }, { jobId: materialId });
}

/** Removes a waiting or delayed job; an active one finishes and finds its material deleted. Throws if Redis refuses. */
export async function cancelMaterialJob(queue: MaterialsQueue, materialId: string): Promise<void> {
  const job = await queue.getJob(materialId);
  if (!job) return;
  const state = await job.getState();
  if (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') {
    await job.remove();
  }
}

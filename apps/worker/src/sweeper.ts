import { findStaleProcessing, touchProcessing } from '@quire/db';
import { enqueueMaterial } from '@quire/queue';
import type { WorkerContext } from './context.ts';

/**
 * Postgres is the source of truth: a material still `processing` long after it started lost its job
 * (Redis flushed, a worker died between retries). Re-enqueue it; the processor's status guard makes a
 * duplicate harmless.
 */
export async function sweepStaleMaterials(ctx: Pick<WorkerContext, 'db' | 'queue' | 'config' | 'logger'>): Promise<number> {
  const olderThan = new Date(Date.now() - ctx.config.PROCESSING_STALE_MS);
  const ids = await findStaleProcessing(ctx.db, olderThan);
  for (const id of ids) {
    const job = await ctx.queue.getJob(id);
    const state = job ? await job.getState() : 'missing';
    if (state === 'active' || state === 'waiting' || state === 'delayed' || state === 'prioritized') continue;
    await touchProcessing(ctx.db, id);
    await enqueueMaterial(ctx.queue, id);
    ctx.logger.warn({ materialId: id, jobState: state }, 're-enqueued a material stuck in processing');
  }
  return ids.length;
}

export function startSweeper(ctx: Pick<WorkerContext, 'db' | 'queue' | 'config' | 'logger'>): () => void {
  const timer = setInterval(() => {
    sweepStaleMaterials(ctx).catch((err) => ctx.logger.warn({ err }, 'sweep failed'));
  }, ctx.config.SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

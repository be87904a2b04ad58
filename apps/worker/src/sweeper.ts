import { findStalePendingDeliveries, findStaleProcessing, touchDelivery } from '@quire/db';
import { removeLateOriginals, requeueStuckMaterial } from '@quire/lifecycle';
import { findMaterialJob, requeueDelivery } from '@quire/queue';
import type { WorkerContext } from './context.ts';

type SweepContext = Pick<WorkerContext, 'db' | 'queue' | 'webhooksQueue' | 'store' | 'config' | 'logger'>;

/**
 * Postgres is the source of truth: a material still `processing` long after it started lost its job
 * (Redis flushed, a worker died between retries). Re-enqueue it; the processor's status guard makes a
 * duplicate harmless.
 */
export async function sweepStaleMaterials(ctx: Omit<SweepContext, 'webhooksQueue'>): Promise<number> {
  const olderThan = new Date(Date.now() - ctx.config.worker.processingStaleMs);
  const stale = await findStaleProcessing(ctx.db, olderThan);
  for (const { id, organizationId } of stale) {
    const job = await findMaterialJob(ctx.queue, id);
    const state = job ? await job.getState() : 'missing';
    // waiting-children: a long recording whose chunk jobs are still queued or running.
    if (['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'].includes(state)) continue;
    await requeueStuckMaterial(ctx, { id, organizationId });
    ctx.logger.warn({ materialId: id, jobState: state }, 're-enqueued a material stuck in processing');
  }
  return stale.length;
}

/** The same for webhook deliveries still pending whose job is gone (or was never enqueued). */
export async function sweepStaleDeliveries(ctx: SweepContext): Promise<number> {
  const olderThan = new Date(Date.now() - ctx.config.worker.processingStaleMs);
  let requeued = 0;
  for (const id of await findStalePendingDeliveries(ctx.db, olderThan)) {
    await touchDelivery(ctx.db, id);
    if (await requeueDelivery(ctx.webhooksQueue, id)) {
      requeued++;
      ctx.logger.warn({ deliveryId: id }, 're-enqueued a webhook delivery that had lost its job');
    }
  }
  return requeued;
}

/**
 * An S3 upload URL cannot be revoked: a PUT to the URL of a material deleted before its URL expired still
 * writes the object. Until every such URL has expired (plus two sweeps, for a PUT in its last second), the
 * originals of deleted materials are removed again, so such a write is an orphan for one sweep at most.
 */
export async function sweepOrphanedOriginals(
  ctx: Pick<SweepContext, 'db' | 'store' | 'config' | 'logger'>,
): Promise<number> {
  const window = ctx.config.limits.uploadUrlTtlSeconds * 1000 + 2 * ctx.config.worker.sweepIntervalMs;
  return removeLateOriginals(ctx, new Date(Date.now() - window));
}

export function startSweeper(ctx: SweepContext): () => void {
  const timer = setInterval(() => {
    sweepStaleMaterials(ctx).catch((err) => ctx.logger.warn({ err }, 'sweep failed'));
    sweepStaleDeliveries(ctx).catch((err) => ctx.logger.warn({ err }, 'delivery sweep failed'));
    sweepOrphanedOriginals(ctx).catch((err) => ctx.logger.warn({ err }, 'orphaned original sweep failed'));
  }, ctx.config.worker.sweepIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

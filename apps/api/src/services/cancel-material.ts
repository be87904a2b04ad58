import { forgetObjects, listAllSpeechChunks, listObjects, transitionMaterial } from '@quire/db';
import { withError, type Material, type MaterialError } from '@quire/material';
import { chunkJobId, enqueueDeliveries, publishCancel, removeJobs } from '@quire/queue';
import { recordMaterialEvent } from '@quire/webhooks';
import type { ApiContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { getMaterial } from './materials.service.ts';

/** How long a cancel waits for running jobs to stop before it answers (they stop within moments when heard). */
const SETTLE_MS = 5_000;

const CHUNK_AUDIO = /\/speech-chunk-\d+\.wav$/;

const CANCELLED: MaterialError = { code: 'CANCELLED', message: 'Processing was cancelled on request' };

export interface CancelOutcome {
  material: Material;
  /** Job ids still running when the cancel answered (a worker that did not hear it); normally none. */
  stillRunning: string[];
}

/**
 * Cancels a material's processing. The status change comes first, in one transaction guarded by `processing`
 * together with its `material.failed` event: whichever of the cancel and the job's own finish commits first is
 * the one outcome (the other finds the status moved and changes nothing). Then the work stops: every worker hears
 * which jobs to abort (the material's, and a recording's chunk jobs), the sandbox child running one is killed,
 * and the jobs are removed from the queue once stopped, with the chunk audio a recording left in storage.
 */
export async function cancelMaterial(ctx: ApiContext, organizationId: string, id: string): Promise<CancelOutcome> {
  const material = await getMaterial(ctx, organizationId, id);
  if (material.status !== 'processing') {
    throw conflict(`The material is ${material.status}: only a material being processed has a job to cancel`);
  }
  const processingMs = material.processingStartedAt ? Date.now() - material.processingStartedAt.getTime() : 0;
  const settled = await ctx.db.transaction().execute(async (trx) => {
    const updated = await transitionMaterial(trx, id, ['processing'], 'error', {
      organizationId,
      metadata: withError(material.metadata, CANCELLED, { processingMs }),
    });
    if (!updated) return undefined;
    return { updated, deliveries: await recordMaterialEvent(trx, updated, 'material.failed') };
  });
  if (!settled) {
    const now = await getMaterial(ctx, organizationId, id).catch(() => undefined);
    if (!now) throw notFound();
    throw conflict(`The job finished before it could be cancelled: the material is ${now.status}`);
  }
  const log = ctx.logger.child({ materialId: id });
  await enqueueDeliveries(ctx.webhooksQueue, settled.deliveries).catch((err) =>
    log.warn({ err }, 'could not enqueue the webhook deliveries of a cancel; the sweeper will'),
  );

  const chunks = await listAllSpeechChunks(ctx.db, id);
  const jobIds = [
    ...chunks.map((c) => chunkJobId({ materialId: id, plan: c.plan, index: c.chunk_index })),
    // The material's own job last: a parent is refused removal while one of its chunks still runs.
    id,
  ];
  let stillRunning = jobIds;
  try {
    const heardBy = await publishCancel(ctx.redis, ctx.config.redis.queuePrefix, { materialId: id, jobIds });
    stillRunning = await removeJobs(ctx.queue, jobIds, SETTLE_MS);
    log.info({ heardBy, jobs: jobIds.length, stillRunning }, 'processing cancelled');
  } catch (err) {
    // The cancel stands (the material is settled): a job that still runs finds that when it tries to finish, and
    // one left in the queue finds it when it starts.
    log.warn({ err }, 'processing cancelled, but its jobs could not be stopped or removed (Redis)');
  }

  // Every chunk's audio the stopped run recorded (also what it cut before its plan was written).
  const audioKeys = (await listObjects(ctx.db, id, 'derived')).map((o) => o.key).filter((key) => CHUNK_AUDIO.test(key));
  if (audioKeys.length > 0) {
    try {
      await ctx.store.remove(audioKeys);
      await forgetObjects(ctx.db, id, audioKeys);
    } catch (err) {
      // Still recorded as the material's: its next run or its deletion removes them.
      log.warn({ err }, 'the chunk audio of a cancelled recording could not be removed');
    }
  }
  return { material: settled.updated, stillRunning };
}

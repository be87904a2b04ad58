import { listAllSpeechChunks, listObjects } from '@quire/db';
import { withError, type Material, type MaterialError } from '@quire/material';
import { chunkJobId, publishCancel, removeJobs } from '@quire/queue';
import { recordMaterialEvent } from '@quire/webhooks';
import type { Redis } from 'ioredis';
import type { LifecycleDeps } from './deps.ts';
import { forgetObjects, transitionMaterial } from './material-writes.ts';

/** How long a cancel waits for running jobs to stop before it answers (they stop within moments when heard). */
const SETTLE_MS = 5_000;

const CHUNK_AUDIO = /\/speech-chunk-\d+\.wav$/;

const CANCELLED: MaterialError = { code: 'CANCELLED', message: 'Processing was cancelled on request' };

export interface CancelDeps extends LifecycleDeps {
  /** Where the cancel is published for every worker to hear (see `subscribeToCancels`), under the queue prefix. */
  redis: Redis;
  queuePrefix: string;
}

export type CancelOutcome =
  | {
      status: 'cancelled';
      material: Material;
      /** Webhook deliveries recorded with the status, to enqueue. */
      webhookDeliveries: string[];
      /** Job ids still running when the cancel gave up waiting (a worker that did not hear it); normally none. */
      stillRunning: string[];
    }
  /** Only a `processing` material has a job to cancel. */
  | { status: 'not-processing'; material: Material }
  /** Its job finished (or it was deleted) between the read and the move. */
  | { status: 'changed' };

/**
 * Cancels a material's processing. The status change comes first, in one transaction guarded by `processing`
 * together with its `material.failed` event: whichever of the cancel and the job's own finish commits first is
 * the one outcome (the other finds the status moved and changes nothing). Then the work stops: every worker hears
 * which jobs to abort (the material's, and a recording's chunk jobs), the sandbox child running one is killed,
 * and the jobs are removed from the queue once stopped, with the chunk audio a recording left in storage.
 */
export async function cancelProcessing(deps: CancelDeps, material: Material): Promise<CancelOutcome> {
  if (material.status !== 'processing') return { status: 'not-processing', material };
  const { id, organizationId } = material;
  const processingMs = material.processingStartedAt ? Date.now() - material.processingStartedAt.getTime() : 0;
  const settled = await deps.db.transaction().execute(async (trx) => {
    const updated = await transitionMaterial(trx, id, ['processing'], 'error', {
      organizationId,
      metadata: withError(material.metadata, CANCELLED, { processingMs }),
    });
    if (!updated) return undefined;
    return { updated, webhookDeliveries: await recordMaterialEvent(trx, updated, 'material.failed') };
  });
  if (!settled) return { status: 'changed' };

  const log = deps.logger.child({ materialId: id });
  const chunks = await listAllSpeechChunks(deps.db, id);
  const jobIds = [
    ...chunks.map((c) => chunkJobId({ materialId: id, plan: c.plan, index: c.chunk_index })),
    // The material's own job last: a parent is refused removal while one of its chunks still runs.
    id,
  ];
  let stillRunning = jobIds;
  try {
    const heardBy = await publishCancel(deps.redis, deps.queuePrefix, { materialId: id, jobIds });
    stillRunning = await removeJobs(deps.queue, jobIds, SETTLE_MS);
    log.info({ heardBy, jobs: jobIds.length, stillRunning }, 'processing cancelled');
  } catch (err) {
    // The cancel stands (the material is settled): a job that still runs finds that when it tries to finish, and
    // one left in the queue finds it when it starts.
    log.warn({ err }, 'processing cancelled, but its jobs could not be stopped or removed (Redis)');
  }

  // Every chunk's audio the stopped run recorded (also what it cut before its plan was written).
  const audioKeys = (await listObjects(deps.db, id, 'derived'))
    .map((o) => o.key)
    .filter((key) => CHUNK_AUDIO.test(key));
  if (audioKeys.length > 0) {
    try {
      await deps.store.remove(audioKeys);
      await forgetObjects(deps.db, id, audioKeys);
    } catch (err) {
      // Still recorded as the material's: its next run or its deletion removes them.
      log.warn({ err }, 'the chunk audio of a cancelled recording could not be removed');
    }
  }
  return { status: 'cancelled', material: settled.updated, webhookDeliveries: settled.webhookDeliveries, stillRunning };
}

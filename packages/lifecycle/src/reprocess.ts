import { forReprocessing, type Material } from '@quire/material';
import { enqueueMaterial } from '@quire/queue';
import type { LifecycleDeps } from './deps.ts';
import { JobRefusedError } from './job-refused.ts';
import { transitionMaterial } from './material-writes.ts';

export type ReprocessOutcome =
  | { status: 'started'; material: Material }
  /** Only an `active` or `error` material can be reprocessed. */
  | { status: 'not-reprocessable'; material: Material }
  /** Its status changed between the read and the move. */
  | { status: 'changed' };

/**
 * Runs extraction again with the current extractors. The material goes back to `processing` (the only
 * state the worker picks up) with its previous text, images and search passages untouched: `publishResult`
 * replaces them together when the new result is ready. Until then search skips it, as it skips every
 * material that is not active. If the queue refuses the job, the material is put back as it was.
 */
export async function reprocess(deps: LifecycleDeps, material: Material): Promise<ReprocessOutcome> {
  if (material.status !== 'active' && material.status !== 'error') return { status: 'not-reprocessable', material };
  const { id, organizationId } = material;
  const metadata = forReprocessing(material.metadata);
  const started = await transitionMaterial(deps.db, id, [material.status], 'processing', { organizationId, metadata });
  if (!started) return { status: 'changed' };
  try {
    await enqueueMaterial(deps.queue, id, { organizationId, finishingMs: 5_000 });
  } catch (err) {
    deps.logger.warn({ err, materialId: id }, 'enqueue failed; putting the material back as it was');
    await transitionMaterial(deps.db, id, ['processing'], material.status, {
      organizationId,
      metadata: material.metadata,
    }).catch((restoreErr) =>
      deps.logger.error(
        { err: restoreErr, materialId: id },
        'could not put a material back after its reprocessing was refused; the sweeper enqueues it later',
      ),
    );
    throw new JobRefusedError(err);
  }
  return { status: 'started', material: started };
}

import { listObjects } from '@quire/db';
import type { Material } from '@quire/material';
import { enqueueMaterial, type ProcessingClass } from '@quire/queue';
import type { LifecycleDeps } from './deps.ts';
import { transitionMaterial } from './material-writes.ts';
import { JobRefusedError } from './job-refused.ts';

/**
 * The row is committed before the job is enqueued; if Redis refuses the job, the material is withdrawn
 * (deleted, objects removed) so the client can retry without leaving a duplicate behind.
 */
export async function enqueueOrWithdraw(
  deps: LifecycleDeps,
  material: Material,
  processingClass: ProcessingClass = 'bulk',
): Promise<void> {
  try {
    await enqueueMaterial(deps.queue, material.id, { organizationId: material.organizationId, processingClass });
  } catch (err) {
    deps.logger.warn({ err, materialId: material.id }, 'enqueue failed; withdrawing the material');
    await withdraw(deps, material).catch((withdrawErr) =>
      deps.logger.error(
        { err: withdrawErr, materialId: material.id },
        'could not withdraw a material whose job was refused; the sweeper enqueues it later',
      ),
    );
    throw new JobRefusedError(err);
  }
}

async function withdraw(deps: Pick<LifecycleDeps, 'db' | 'store'>, material: Material): Promise<void> {
  await transitionMaterial(deps.db, material.id, ['processing', 'pending_upload'], 'deleted');
  const objects = await listObjects(deps.db, material.id);
  await deps.store.remove(objects.map((o) => o.key));
}

import { listObjects } from '@quire/db';
import { DELETABLE_STATUSES, originalOf, type Material } from '@quire/material';
import { cancelMaterialJob } from '@quire/queue';
import type { LifecycleDeps } from './deps.ts';
import { transitionMaterial } from './material-writes.ts';
import { dropSearchPassages } from './search-passages.ts';

/**
 * Marks the material deleted and drops its search passages (one transaction), cancels its queued job and
 * removes every object it holds. Undefined when the organization has no such live material.
 */
export async function deleteMaterial(
  deps: LifecycleDeps,
  organizationId: string,
  id: string,
): Promise<Material | undefined> {
  const deleted = await deps.db.transaction().execute(async (trx) => {
    const row = await transitionMaterial(trx, id, DELETABLE_STATUSES, 'deleted', { organizationId });
    if (row) await dropSearchPassages(trx, id);
    return row;
  });
  if (!deleted) return undefined;
  await cancelMaterialJob(deps.queue, id).catch((err) =>
    deps.logger.warn({ err, materialId: id }, 'could not cancel the job'),
  );
  const objects = await listObjects(deps.db, id);
  const keys = new Set(objects.map((o) => o.key));
  const original = originalOf(deleted.source);
  if (original) keys.add(original.s3Key);
  try {
    await deps.store.remove([...keys]);
  } catch (err) {
    deps.logger.error({ err, materialId: id }, 'objects of a deleted material could not be removed');
  }
  return deleted;
}

import { deletedOriginalKeys } from '@quire/db';
import { enqueueMaterial } from '@quire/queue';
import type { LifecycleDeps } from './deps.ts';
import { touchProcessing } from './material-writes.ts';

/**
 * Queues again a material left in `processing` whose job was lost (Redis flushed, a worker died between
 * retries), restarting its staleness clock. The processor's status guard makes a duplicate harmless.
 */
export async function requeueStuckMaterial(
  deps: Pick<LifecycleDeps, 'db' | 'queue'>,
  material: { id: string; organizationId: string },
): Promise<void> {
  await touchProcessing(deps.db, material.id);
  await enqueueMaterial(deps.queue, material.id, { organizationId: material.organizationId });
}

/**
 * An S3 upload URL cannot be revoked: a PUT to the URL of a material deleted before its URL expired still
 * writes the object. Removes again the originals of materials deleted since `deletedSince`; returns how many.
 */
export async function removeLateOriginals(
  deps: Pick<LifecycleDeps, 'db' | 'store'>,
  deletedSince: Date,
): Promise<number> {
  const keys = await deletedOriginalKeys(deps.db, deletedSince);
  if (keys.length > 0) await deps.store.remove(keys);
  return keys.length;
}

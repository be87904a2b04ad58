import { listObjects, lockMaterialIn } from '@quire/db';
import type { Material, MaterialMetadata } from '@quire/material';
import { recordMaterialEvent } from '@quire/webhooks';
import type { Logger } from 'pino';
import type { LifecycleDeps } from './deps.ts';
import { jsonSafe } from './json-safe.ts';
import { forgetObjects, recordObject, transitionMaterial } from './material-writes.ts';
import { replaceSearchPassages, type SearchPassage } from './search-passages.ts';

/** An object a run wrote to storage (text, segments, images), to be owned by the material once published. */
export interface WrittenObject {
  key: string;
  bytes: number;
}

/** A finished run: the metadata it computed, the objects it wrote and the passages its text was cut into. */
export interface RunResult {
  metadata: MaterialMetadata;
  objects: WrittenObject[];
  passages: SearchPassage[];
}

export type PublishOutcome = { status: 'active'; webhookDeliveries: string[] } | { status: 'skipped' };

/**
 * Makes a `processing` material `active` with a run's result, in one transaction guarded by that status:
 * the row, its search passages (and with them the search index, see `replaceSearchPassages`), the objects it
 * owns (this run's replace the previous run's) and its `material.processed` webhook deliveries. Skipped when
 * the material was deleted or finished by another run meanwhile; what this run wrote is then removed, as
 * the previous run's objects are once the new ones are published. Webhook deliveries are returned to enqueue.
 */
export async function publishResult(
  deps: Pick<LifecycleDeps, 'db' | 'store'>,
  material: Material,
  result: RunResult,
  log: Logger,
): Promise<PublishOutcome> {
  const { db, store } = deps;
  const derivedBytes = result.objects.reduce((sum, o) => sum + o.bytes, 0);
  const committed = await db.transaction().execute(async (trx) => {
    // The row is locked first (the guard), the status moved last: the organization-wide rows a status change
    // updates (counts, listing version) are then held only for the moment before the commit, not while the
    // passages are written, so publishes in one organization run side by side.
    if (!(await lockMaterialIn(trx, material.id, ['processing']))) return undefined;
    await replaceSearchPassages(trx, material, result.passages);
    const updated = await transitionMaterial(trx, material.id, ['processing'], 'active', {
      metadata: jsonSafe(result.metadata),
      derivedBytes,
    });
    if (!updated) return undefined;
    const previous = await listObjects(trx, material.id, 'derived');
    await forgetObjects(
      trx,
      material.id,
      previous.map((o) => o.key),
    );
    for (const object of result.objects) await recordObject(trx, material.id, object.key, 'derived', object.bytes);
    return {
      replaced: previous.map((o) => o.key),
      webhookDeliveries: await recordMaterialEvent(trx, updated, 'material.processed'),
    };
  });
  if (!committed) {
    // Deleted or finished by another run meanwhile: what this run wrote belongs to nobody.
    await store.remove(result.objects.map((o) => o.key));
    return { status: 'skipped' };
  }
  await store
    .remove(committed.replaced)
    .catch((err) => log.warn({ err, keys: committed.replaced }, "the previous run's objects could not be removed"));
  return { status: 'active', webhookDeliveries: committed.webhookDeliveries };
}

import { withError, type Material, type MaterialError, type RunMeasures } from '@quire/material';
import { recordMaterialEvent } from '@quire/webhooks';
import type { LifecycleDeps } from './deps.ts';
import { jsonSafe } from './json-safe.ts';
import { transitionMaterial } from './material-writes.ts';

export type FailureOutcome =
  { status: 'error'; material: Material; webhookDeliveries: string[] } | { status: 'skipped' };

/**
 * Moves a `processing` material to `error` with `error` (its code says why) and records its `material.failed`
 * webhook deliveries, in one transaction guarded by that status. Skipped when the material is no longer
 * processing (deleted, or settled by another run). Webhook deliveries are returned to enqueue.
 */
export async function recordFailure(
  deps: Pick<LifecycleDeps, 'db'>,
  material: Material,
  error: MaterialError,
  run: RunMeasures,
): Promise<FailureOutcome> {
  const metadata = withError(material.metadata, error, run);
  return deps.db.transaction().execute(async (trx) => {
    const updated = await transitionMaterial(trx, material.id, ['processing'], 'error', {
      metadata: jsonSafe(metadata),
    });
    if (!updated) return { status: 'skipped' };
    const webhookDeliveries = await recordMaterialEvent(trx, updated, 'material.failed');
    return { status: 'error', material: updated, webhookDeliveries };
  });
}

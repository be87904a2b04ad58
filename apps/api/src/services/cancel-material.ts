import { cancelProcessing } from '@quire/lifecycle';
import type { Material } from '@quire/material';
import { enqueueDeliveries } from '@quire/queue';
import type { ApiContext } from '../context.ts';
import { getMaterial } from './materials.service.ts';

export type CancelMaterialOutcome =
  | { status: 'cancelled'; material: Material }
  /** Not being processed: it has no job to cancel. */
  | { status: 'not-processing'; material: Material }
  /** Its job finished first; `material` as it is now, undefined when it is gone. */
  | { status: 'finished-first'; material: Material | undefined };

/** `POST /{id}/cancel-job` (see `lifecycle.cancelProcessing`); 404 for no such material. */
export async function cancelMaterial(
  ctx: ApiContext,
  organizationId: string,
  id: string,
): Promise<CancelMaterialOutcome> {
  const material = await getMaterial(ctx, organizationId, id);
  const deps = { ...ctx, queuePrefix: ctx.config.redis.queuePrefix };
  const outcome = await cancelProcessing(deps, material);
  if (outcome.status === 'not-processing') return { status: 'not-processing', material };
  if (outcome.status === 'changed') {
    return { status: 'finished-first', material: await getMaterial(ctx, organizationId, id).catch(() => undefined) };
  }
  // Recorded with the status: if this enqueue is lost, the sweeper finds them pending and enqueues them.
  await enqueueDeliveries(ctx.webhooksQueue, outcome.webhookDeliveries).catch((err) =>
    ctx.logger.warn({ err, materialId: id }, 'could not enqueue the webhook deliveries of a cancel; the sweeper will'),
  );
  return { status: 'cancelled', material: outcome.material };
}

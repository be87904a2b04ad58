import { cancelProcessing } from '@quire/lifecycle';
import type { Material } from '@quire/material';
import { enqueueDeliveries } from '@quire/queue';
import type { ApiContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { getMaterial } from './materials.service.ts';

/**
 * `POST /{id}/cancel-job` (see `lifecycle.cancelProcessing`): 404 for no such material, 409 when it is not being processed
 * or its job finished first.
 */
export async function cancelMaterial(ctx: ApiContext, organizationId: string, id: string): Promise<Material> {
  const material = await getMaterial(ctx, organizationId, id);
  const deps = { ...ctx, queuePrefix: ctx.config.redis.queuePrefix };
  const outcome = await cancelProcessing(deps, material);
  if (outcome.status === 'not-processing') {
    throw conflict(`The material is ${material.status}: only a material being processed has a job to cancel`);
  }
  if (outcome.status === 'changed') {
    const now = await getMaterial(ctx, organizationId, id).catch(() => undefined);
    if (!now) throw notFound();
    throw conflict(`The job finished before it could be cancelled: the material is ${now.status}`);
  }
  // Recorded with the status: if this enqueue is lost, the sweeper finds them pending and enqueues them.
  await enqueueDeliveries(ctx.webhooksQueue, outcome.webhookDeliveries).catch((err) =>
    ctx.logger.warn({ err, materialId: id }, 'could not enqueue the webhook deliveries of a cancel; the sweeper will'),
  );
  return outcome.material;
}

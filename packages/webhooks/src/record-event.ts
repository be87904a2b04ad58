import { insertDeliveries, newId, type Db } from '@quire/db';
import type { Material } from '@quire/material';
import { materialEvent, type WebhookEventType } from './events.ts';

/**
 * Records the event's deliveries, one per subscribed webhook, in the caller's transaction (the one that
 * settles the material), so they exist exactly when the new status does. Returns the delivery ids to enqueue.
 */
export async function recordMaterialEvent(trx: Db, material: Material, type: WebhookEventType): Promise<string[]> {
  const eventId = newId();
  return insertDeliveries(trx, {
    organizationId: material.organizationId,
    eventId,
    eventType: type,
    payload: materialEvent(eventId, type, material),
    newId,
  });
}

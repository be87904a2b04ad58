import { sql } from 'kysely';
import type { Db } from './connection.ts';
import type { Webhook, WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus } from './schema.ts';

export interface NewWebhookInput {
  id: string;
  organizationId: string;
  url: string;
  secret: string;
  events: string[];
}

export async function insertWebhook(db: Db, w: NewWebhookInput): Promise<Webhook> {
  return db
    .insertInto('webhooks')
    .values({ id: w.id, organization_id: w.organizationId, url: w.url, secret: w.secret, events: w.events })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listWebhooks(db: Db, organizationId: string): Promise<Webhook[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** Stops deliveries to the webhook; its delivery history stays. */
export async function removeWebhook(db: Db, id: string): Promise<boolean> {
  const removed = await db
    .updateTable('webhooks')
    .set({ removed_at: new Date() })
    .where('id', '=', id)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return removed.numUpdatedRows > 0n;
}

export interface NewDeliveryEvent {
  organizationId: string;
  eventId: string;
  eventType: string;
  payload: unknown;
  /** One delivery id per subscribed webhook, drawn by the caller. */
  newId: () => string;
}

/** Records one pending delivery per webhook of the organization subscribed to the event; returns their ids. */
export async function insertDeliveries(db: Db, event: NewDeliveryEvent): Promise<string[]> {
  const webhooks = await db
    .selectFrom('webhooks')
    .select('id')
    .where('organization_id', '=', event.organizationId)
    .where('removed_at', 'is', null)
    .where(sql<boolean>`${event.eventType} = any(events)`)
    .execute();
  if (webhooks.length === 0) return [];
  const rows = webhooks.map((w) => ({
    id: event.newId(),
    webhook_id: w.id,
    event_id: event.eventId,
    event_type: event.eventType,
    payload: JSON.stringify(event.payload),
  }));
  await db.insertInto('webhook_deliveries').values(rows).execute();
  return rows.map((r) => r.id);
}

export type DeliveryToSend = Pick<WebhookDelivery, 'id' | 'event_type' | 'payload' | 'status'> &
  Pick<Webhook, 'url' | 'secret' | 'removed_at'> & { webhook_id: string };

export async function findDeliveryToSend(db: Db, id: string): Promise<DeliveryToSend | undefined> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.event_type', 'd.payload', 'd.status', 'd.webhook_id', 'w.url', 'w.secret', 'w.removed_at'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** What the delivery is after this attempt. */
  status: WebhookDeliveryStatus;
}

/** Records one attempt and the delivery's resulting state together; a repeated attempt number is kept once. */
export async function recordDeliveryAttempt(db: Db, a: AttemptRecord): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: a.deliveryId,
        attempt: a.attempt,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: a.status,
        attempts: sql<number>`greatest(attempts, ${a.attempt})`,
        last_status_code: a.statusCode,
        last_error: a.error,
        updated_at: new Date(),
        ...(a.status === 'delivered' ? { delivered_at: new Date() } : {}),
      })
      .where('id', '=', a.deliveryId)
      .where('status', '=', 'pending')
      .execute();
  });
}

export async function failDelivery(db: Db, id: string, error: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: error, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Pending deliveries untouched since `olderThan`: candidates for re-enqueueing when their job was lost. */
export async function findStalePendingDeliveries(db: Db, olderThan: Date, limit = 1000): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('updated_at', '<', olderThan)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function touchDelivery(db: Db, id: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ updated_at: new Date() }).where('id', '=', id).execute();
}

export type DeliveryWithAttempts = WebhookDelivery & {
  attempt_log: Pick<WebhookAttempt, 'attempt' | 'status_code' | 'error' | 'duration_ms' | 'attempted_at'>[];
};

/** The latest deliveries of a webhook, each with its attempts in order. */
export async function listDeliveries(db: Db, webhookId: string, limit = 20): Promise<DeliveryWithAttempts[]> {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'status_code', 'error', 'duration_ms', 'attempted_at'])
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('attempt')
    .execute();
  return deliveries.map((d) => ({
    ...d,
    attempt_log: attempts.filter((a) => a.delivery_id === d.id).map(({ delivery_id: _id, ...rest }) => rest),
  }));
}

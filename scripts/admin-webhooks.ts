import {
  findOrganization,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  newId,
  removeWebhook,
  type Db,
} from '@quire/db';
import { generateWebhookSecret, WEBHOOK_EVENTS } from '@quire/webhooks';

export const WEBHOOK_USAGE = `  admin webhook add --org ORG_ID --url URL [--events ${WEBHOOK_EVENTS.join(',')}]
  admin webhook list --org ORG_ID
  admin webhook remove --id WEBHOOK_ID
  admin webhook deliveries --id WEBHOOK_ID`;

type Flags = Record<string, string | undefined>;
type Fail = (message: string) => never;

function targetUrl(raw: string, fail: Fail): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(`--url ${raw} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('--url must be an http or https URL');
  return url.href;
}

function eventList(raw: string | undefined, fail: Fail): string[] {
  if (raw === undefined) return [...WEBHOOK_EVENTS];
  const events = [
    ...new Set(
      raw
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (events.length === 0 || unknown.length > 0) fail(`--events must list some of ${WEBHOOK_EVENTS.join(', ')}`);
  return events;
}

const view = (w: { id: string; url: string; events: string[]; created_at: Date }) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  createdAt: w.created_at,
});

/** `admin webhook ...`: the secret is printed once, by `add`; receivers verify deliveries with it. */
export function webhookCommands(
  required: (flags: Flags, name: string) => string,
  fail: Fail,
): Record<string, (db: Db, flags: Flags) => Promise<unknown>> {
  return {
    'webhook add': async (db, flags) => {
      const organizationId = required(flags, 'org');
      const url = targetUrl(required(flags, 'url'), fail);
      const events = eventList(flags.events, fail);
      if (!(await findOrganization(db, organizationId))) fail(`organization ${organizationId} not found`);
      const webhook = await insertWebhook(db, {
        id: newId(),
        organizationId,
        url,
        secret: generateWebhookSecret(),
        events,
      });
      return { ...view(webhook), secret: webhook.secret };
    },
    'webhook list': async (db, flags) => (await listWebhooks(db, required(flags, 'org'))).map(view),
    'webhook remove': async (db, flags) => {
      const id = required(flags, 'id');
      if (!(await removeWebhook(db, id))) fail(`webhook ${id} not found or already removed`);
      return { id, removed: true };
    },
    'webhook deliveries': async (db, flags) =>
      (await listDeliveries(db, required(flags, 'id'))).map((d) => ({
        id: d.id,
        eventId: d.event_id,
        event: d.event_type,
        status: d.status,
        createdAt: d.created_at,
        deliveredAt: d.delivered_at,
        attempts: d.attempt_log.map((a) => ({
          attempt: a.attempt,
          at: a.attempted_at,
          statusCode: a.status_code,
          error: a.error,
          durationMs: a.duration_ms,
        })),
      })),
  };
}

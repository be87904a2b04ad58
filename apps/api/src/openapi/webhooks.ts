import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { SIGNATURE_HEADER, WEBHOOK_EVENTS, webhookEventSchema } from '@quire/webhooks';

const headers = z.object({
  [SIGNATURE_HEADER]: z.string().meta({
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook secret>`; docs/api.md in the repository shows how to verify it',
    example: 't=1736294399,v1=5f8c…',
  }),
  'Quire-Event': z.enum(WEBHOOK_EVENTS),
  'Quire-Delivery': z.string().meta({ description: 'Id of this delivery; retries of it carry the same id' }),
});

/** What quire POSTs to the URLs an organization registers with `npm run admin -- webhook add`. */
export function documentWebhooks(registry: OpenAPIRegistry): void {
  const description =
    'Answer 2xx within `WEBHOOK_TIMEOUT_MS`; anything else is retried with exponential backoff (`WEBHOOK_ATTEMPTS`, `WEBHOOK_BACKOFF_MS`). Deliveries may arrive more than once and out of order: use `id` to deduplicate.';
  for (const type of WEBHOOK_EVENTS) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      summary:
        type === 'material.processed'
          ? 'A material finished processing and is `active`'
          : 'Processing failed; the material is `error`',
      description,
      request: { headers, body: { required: true, content: { 'application/json': { schema: webhookEventSchema } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery' } },
    });
  }
}

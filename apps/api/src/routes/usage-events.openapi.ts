import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { USAGE_EVENT_TYPES } from '@quire/db';
import { documentApiRoute, errorBodySchema, isoTimestamp, json, jsonBody } from '../openapi/common.ts';
import { batchSchema, listEventsQuerySchema } from './usage-events.schema.ts';

const usageEventViewSchema = z
  .strictObject({
    eventId: z.string(),
    type: z.enum(USAGE_EVENT_TYPES),
    userId: z.string(),
    userName: z.string(),
    groupId: z.string(),
    occurredAt: isoTimestamp,
    value: z.number().nullable(),
    properties: z.record(z.string(), z.unknown()).nullable(),
    receivedAt: isoTimestamp,
  })
  .meta({ id: 'UsageEvent' });

const tags = ['Usage events'];

export function documentUsageEventsRoutes(registry: OpenAPIRegistry): void {
  documentApiRoute(registry, {
    tags,
    method: 'post',
    path: '/api/v1/usage/events',
    summary: 'Report activity (1..1000 events), idempotent by eventId',
    description:
      'The whole batch is stored or none of it: the first bad event is named in the 400 (`index`, `message` `events[i].field: ...`). A key with a group files every event under it; a key without one needs `groupId` on each event.',
    request: { body: jsonBody(batchSchema) },
    responses: { 200: json('Counted', z.strictObject({ accepted: z.number().int(), duplicates: z.number().int() })) },
  });
  documentApiRoute(registry, {
    tags,
    method: 'get',
    path: '/api/v1/usage/events',
    summary: "List the key's group's events (or its organization's, or one of its groups'), newest first",
    description: 'An unknown query parameter is a 400; so is a `groupId` other than its own for a key with a group.',
    request: { query: listEventsQuerySchema },
    responses: {
      404: json('`groupId` names no group of the organization', errorBodySchema),
      200: json(
        'One page',
        z.strictObject({ events: z.array(usageEventViewSchema), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
      ),
    },
  });
}

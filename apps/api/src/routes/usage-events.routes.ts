import { z } from 'zod';
import { USAGE_EVENT_TYPES } from '@quire/db';
import { isoTimestamp } from '@quire/material';
import { errorBodySchema, json } from '../openapi/common.ts';
import { listUsageEvents, recordUsageEvents } from '../services/usage-events.service.ts';
import { apiRoute, type AnyRoute } from './route.ts';
import { batchSchema, eventBatchError, listEventsQuerySchema } from './usage-events.schema.ts';

const usageEventViewSchema = z
  .strictObject({
    eventId: z.string(),
    type: z.enum(USAGE_EVENT_TYPES),
    userId: z.string().nullable().meta({ description: "Null for quire's own events (materials', API calls)" }),
    userName: z.string().nullable(),
    groupId: z.string().nullable().meta({ description: "Null for quire's own events that belong to no group" }),
    resourceId: z
      .string()
      .nullable()
      .meta({ description: "What the event is about: a material's id for `material_*`" }),
    occurredAt: isoTimestamp,
    value: z.number().nullable(),
    properties: z.record(z.string(), z.unknown()).nullable(),
    receivedAt: isoTimestamp,
  })
  .meta({ id: 'UsageEvent' });

const tags = ['Usage events'];

/** `/api/v1/usage/events`: how the platform reports activity, and a way to read it back. */
export const usageEventRoutes: AnyRoute[] = [
  apiRoute({
    method: 'post',
    path: '/api/v1/usage/events',
    tags,
    summary: 'Report activity (1..1000 events), idempotent by eventId',
    description:
      'The whole batch is stored or none of it: the first bad event is named in the 400 (`index`, `message` `events[i].field: ...`). A key with a group files every event under it; a key without one needs `groupId` on each event.',
    body: { json: batchSchema },
    invalid: eventBatchError,
    responses: { 200: json('Counted', z.strictObject({ accepted: z.number().int(), duplicates: z.number().int() })) },
    handle: async ({ ctx, principal, body }) => ({
      status: 200,
      body: await recordUsageEvents(ctx, principal, body.events),
    }),
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/usage/events',
    tags,
    summary: "List the key's group's events (or its organization's, or one of its groups'), newest first",
    description:
      "A key with a group sees its group's events and quire's own events of no group (a material's `material_*`, the API calls of keys without a group). " +
      'An unknown query parameter is a 400; so is a `groupId` other than its own for a key with a group.',
    query: listEventsQuerySchema,
    responses: {
      404: json('`groupId` names no group of the organization', errorBodySchema),
      200: json(
        'One page',
        z.strictObject({
          events: z.array(usageEventViewSchema),
          limit: z.number().int(),
          offset: z.number().int(),
          hasMore: z.boolean(),
        }),
      ),
    },
    handle: async ({ ctx, principal, query: q }) => ({
      status: 200,
      body: await listUsageEvents(ctx, principal, {
        from: q.startDate,
        to: q.endDate,
        type: q.eventType,
        userId: q.userId,
        groupId: q.groupId,
        resourceId: q.resourceId,
        limit: q.limit,
        offset: q.offset,
      }),
    }),
  }),
];

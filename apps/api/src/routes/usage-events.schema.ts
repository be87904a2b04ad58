import { z } from 'zod';
import { USAGE_EVENT_TYPES } from '@quire/db';
import { badEvent } from '../errors.ts';
import { rangeInstant } from './date-query.schema.ts';

export const MAX_EVENTS_PER_BATCH = 1000;
/** One engagement event covers at most a day of activity; more is a client bug, not a long session. */
const MAX_ENGAGEMENT_MS = 86_400_000;
/** Clock skew tolerated before an event counts as being from the future. */
const MAX_FUTURE_MS = 3_600_000;
const MAX_PROPERTIES_BYTES = 8 * 1024;

const id = z.string().min(1).max(200);
const timestamp = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp with Z or an offset' })
  .transform((v) => new Date(v));

export const usageEventSchema = z
  .strictObject({
    eventId: id,
    type: z.enum(USAGE_EVENT_TYPES),
    userId: id,
    userName: z.string().trim().min(1).max(500).nullish(),
    groupId: id.nullish(),
    occurredAt: timestamp,
    value: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
    properties: z
      .record(z.string(), z.unknown())
      .refine(
        (p) => JSON.stringify(p).length <= MAX_PROPERTIES_BYTES,
        `must be at most ${MAX_PROPERTIES_BYTES} bytes of JSON`,
      )
      .nullish(),
  })
  .superRefine((event, ctx) => {
    // Zod runs this even when a field failed, so occurredAt may still be the raw input.
    if (event.occurredAt instanceof Date && event.occurredAt.getTime() > Date.now() + MAX_FUTURE_MS) {
      ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'must not be in the future' });
    }
    if (event.type === 'engagement' && (event.value == null || event.value > MAX_ENGAGEMENT_MS)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `engagement needs value: engaged milliseconds, 0..${MAX_ENGAGEMENT_MS}`,
      });
    }
    if (event.type === 'test_question_answered' && typeof event.properties?.correct !== 'boolean') {
      ctx.addIssue({
        code: 'custom',
        path: ['properties', 'correct'],
        message: 'test_question_answered needs properties.correct: true or false',
      });
    }
  });

export type UsageEventInput = z.infer<typeof usageEventSchema>;

export const batchSchema = z.strictObject({
  events: z
    .array(usageEventSchema)
    .min(1, 'events must have at least one event')
    .max(MAX_EVENTS_PER_BATCH, `events may have at most ${MAX_EVENTS_PER_BATCH} events`),
});

/** The whole batch or nothing: the first bad event is named by its index, with every problem of it in details. */
export function parseEventBatch(body: unknown): UsageEventInput[] {
  const parsed = batchSchema.safeParse(body);
  if (parsed.success) return parsed.data.events;
  throw eventBatchError(parsed.error);
}

/** The 400 of an invalid batch: the first bad event by its index, or the plain validation error. */
export function eventBatchError(error: z.ZodError): Error {
  const [first] = error.issues;
  const index = first?.path[0] === 'events' ? first.path[1] : undefined;
  if (typeof index !== 'number') return error;
  const details = error.issues
    .filter((i) => i.path[1] === index)
    .map((i) => ({ field: i.path.join('.'), message: i.message }));
  return badEvent(index, first!.path.slice(2).join('.') || 'event', first!.message, details);
}

/** Strict: a filter this endpoint does not know is a 400, never silently dropped. */
export const listEventsQuerySchema = z
  .strictObject({
    startDate: rangeInstant('startDate', 'start').optional(),
    endDate: rangeInstant('endDate', 'end').optional(),
    eventType: z.enum(USAGE_EVENT_TYPES).optional(),
    userId: id.optional(),
    groupId: id.optional(),
    resourceId: id.optional().meta({ description: "The resource an event is about: a material's id for `material_*`" }),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    path: ['startDate'],
    message: 'must not be after endDate',
  });

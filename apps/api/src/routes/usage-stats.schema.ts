import { z } from 'zod';
import { REPORTED_EVENT_TYPES } from '@quire/db';
import { isoTimestamp } from '@quire/material';
import { rangeInstant } from './date-query.schema.ts';
import { DEFAULT_START_DATE } from './group-analytics.schema.ts';

const id = z.string().trim().min(1).max(200);

/** The public service's `UsageGetStatsParams`, all optional; a parameter it does not know is a 400. */
export const usageStatsQuerySchema = z
  .strictObject({
    startDate: rangeInstant('startDate', 'start').prefault(DEFAULT_START_DATE),
    endDate: rangeInstant('endDate', 'end').optional(),
    groupId: id.optional().meta({ description: "One group's usage (a key with a group may name only its own)" }),
    userId: id.optional().meta({ description: "One user's usage (the `userId` the events carried)" }),
  })
  .refine((q) => q.endDate === undefined || q.startDate <= q.endDate, {
    path: ['startDate'],
    message: 'must not be after endDate',
  });

export const usageStatsSchema = z
  .strictObject({
    startDate: isoTimestamp,
    endDate: isoTimestamp,
    groupId: z.string().nullable().meta({ description: 'The group counted, or null for the whole organization' }),
    userId: z.string().nullable(),
    totalEvents: z.number().int().meta({ description: 'Events of every type in the range' }),
    eventsByType: z
      .strictObject(Object.fromEntries(REPORTED_EVENT_TYPES.map((t) => [t, z.number().int()])))
      .meta({ description: 'Events per type, every type listed' }),
    engagedMs: z.number().int().meta({ description: 'Engaged milliseconds of `engagement` events' }),
    activeUsers: z.number().int().meta({ description: 'Distinct users with at least one event in the range' }),
  })
  .meta({ id: 'UsageStats' });

import { z } from 'zod';
import { REPORTED_EVENT_TYPES } from '@quire/db';
import { isoTimestamp } from '@quire/material';
import { json } from '../openapi/common.ts';
import { summarizeUsage } from '../services/usage-summary.service.ts';
import { apiRoute, type AnyRoute } from './route.ts';
import { GROUP_BY, usageSummaryQuerySchema } from './usage-summary.schema.ts';

const figures = {
  events: z.number().int().meta({ description: 'Events of every type' }),
  byType: z
    .strictObject(Object.fromEntries(REPORTED_EVENT_TYPES.map((t) => [t, z.number().int()])))
    .meta({ description: 'Events per type' }),
  engagedMs: z.number().int().meta({ description: 'Engaged milliseconds of `engagement` events' }),
};

const summarySchema = z
  .strictObject({
    period: z.enum(['hourly', 'daily', 'monthly']),
    startDate: isoTimestamp,
    endDate: isoTimestamp,
    groupBy: z.enum(GROUP_BY).nullable(),
    totals: z.strictObject(figures),
    summary: z.array(
      z.strictObject({
        periodStart: isoTimestamp,
        periodEnd: isoTimestamp,
        userId: z.string().optional(),
        userName: z.string().optional(),
        groupId: z.string().optional(),
        model: z.string().optional().meta({ description: '`none` with `groupBy=model`: quire runs no model' }),
        endpoint: z
          .string()
          .optional()
          .meta({ description: 'With `groupBy=endpoint`: the route template, `GET /api/v1/materials/{id}`' }),
        durationMs: z.number().optional().meta({ description: "With `groupBy=endpoint`: the calls' summed duration" }),
        ...figures,
      }),
    ),
  })
  .meta({ id: 'UsageSummary' });

/** `GET /api/v1/usage/summary`: usage per hour, day or month, in total or per student or group. */
export const usageSummaryRoutes: AnyRoute[] = [
  apiRoute({
    method: 'get',
    path: '/api/v1/usage/summary',
    tags: ['Usage events'],
    summary: "Usage per UTC hour, day or month of the key's group (or its organization), in total or per user or group",
    description:
      'Periods are UTC hours, days or calendar months; the first and last are cut to `startDate`/`endDate` (both inclusive). ' +
      'Without `groupBy` every period is listed, zeros included; with it, only the users or groups active in a period. ' +
      'Answered from the daily counters of the group reports, which count the analytics types only. ' +
      '`groupBy=model` lists the same figures under one model, `none` (quire runs no model), in the periods with events. ' +
      '`groupBy=endpoint` counts the `api_call` events instead (as recorded, see `API_CALL_EVENTS`): per period and route template, `events` calls and their `durationMs`.',
    query: usageSummaryQuerySchema,
    responses: { 200: json('The summary', summarySchema) },
    handle: async ({ ctx, principal, query }) => {
      const limits = {
        maxRangeDays: ctx.config.limits.analyticsMaxRangeDays,
        maxPeriods: ctx.config.limits.usageSummaryMaxPeriods,
      };
      return { status: 200, body: await summarizeUsage(ctx, principal, query, limits) };
    },
  }),
];

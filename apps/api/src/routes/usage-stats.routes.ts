import { json } from '../openapi/common.ts';
import { usageStats } from '../services/usage-stats.service.ts';
import { apiRoute, type AnyRoute } from './route.ts';
import { usageStatsQuerySchema, usageStatsSchema } from './usage-stats.schema.ts';

/** `GET /api/v1/usage/stats`: the public service's usage totals over a range. */
export const usageStatsRoutes: AnyRoute[] = [
  apiRoute({
    method: 'get',
    path: '/api/v1/usage/stats',
    tags: ['Usage events'],
    summary: "Usage totals of the key's group (or its organization) over a range, by event type, with active users",
    description:
      "`startDate` defaults to 2025-01-01 and `endDate` to now (both inclusive, read like the reports' dates). `groupId` " +
      "narrows a key without a group to one of its groups (404 for another organization's); a key with a group may " +
      'name only its own (400). `userId` counts one user. Answered from the daily counters of the group reports.',
    query: usageStatsQuerySchema,
    responses: { 200: json('The totals', usageStatsSchema) },
    errors: [400, 404],
    handle: async ({ ctx, principal, query }) => ({
      status: 200,
      body: await usageStats(ctx, principal, query, ctx.config.limits.analyticsMaxRangeDays),
    }),
  }),
];

import { z } from 'zod';
import { isoTimestamp } from '@quire/material';
import { errorBodySchema, json } from '../openapi/common.ts';
import {
  buildGroupReport,
  groupWithActivePlan,
  REPORT_NAMES,
  type ReportName,
} from '../services/group-analytics.service.ts';
import { invalidReportQuery, reportQuerySchema, reportRange } from './group-analytics.schema.ts';
import { apiRoute, type AnyRoute } from './route.ts';

const metricsSchema = z.array(z.strictObject({ title: z.string(), value: z.number() }));

const reportSchema = z
  .strictObject({
    success: z.literal(true),
    reports: z.array(
      z.union([
        z.strictObject({
          startDate: isoTimestamp,
          endDate: isoTimestamp,
          numStudentsUsed: z.number().int(),
          data: metricsSchema,
        }),
        z.strictObject({
          startDate: isoTimestamp,
          endDate: isoTimestamp,
          studentName: z.string(),
          studentId: z.string(),
          data: metricsSchema,
        }),
      ]),
    ),
  })
  .meta({
    id: 'GroupReport',
    description: 'One report per 7-day window (group level), or per window and student (`students=true`)',
  });

const missingParamsSchema = z
  .strictObject({ error: z.literal('Missing params'), message: z.string() })
  .meta({ id: 'MissingParams' });

const SUMMARIES: Record<ReportName, string> = {
  'live-lecture': 'Live lecture usage: sessions made and chat messages',
  tests: 'Test usage: tests and questions made, questions answered (in)correctly, chat questions',
  engagement: 'Minutes engaged',
  chat: 'Chat messages: the total, then Tutor Me, test, flashcard, material, live lecture and main chat messages',
  flashcards: 'Flashcards: sets made, flashcards made, chat questions',
  explainers: 'Explainer videos made',
};

/** `POST /api/groups/{live-lecture,tests,engagement,chat,flashcards,explainers}`: reports on the key's group. */
export const groupAnalyticsRoutes: AnyRoute[] = REPORT_NAMES.map((name) =>
  apiRoute({
    method: 'post',
    path: `/api/groups/${name}`,
    tags: ['Group analytics'],
    summary: SUMMARIES[name],
    description:
      'The key\'s group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.',
    // The plan is checked before the query: a key without an active plan learns nothing more than 403.
    authorize: (principal) => void groupWithActivePlan(principal, new Date()),
    query: reportQuerySchema,
    invalid: invalidReportQuery,
    responses: {
      200: json('The reports', reportSchema),
      400: json(
        'A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body)',
        z.union([missingParamsSchema, errorBodySchema]),
      ),
    },
    handle: async ({ ctx, principal, query }) => {
      const now = new Date();
      const groupId = groupWithActivePlan(principal, now);
      const range = reportRange(query, now, ctx.config.limits.analyticsMaxRangeDays);
      return {
        status: 200,
        body: await buildGroupReport(ctx, { organizationId: principal.organizationId, groupId }, name, range),
      };
    },
  }),
);

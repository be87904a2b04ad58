import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { documentApiRoute, errorBodySchema, isoTimestamp, json } from '../openapi/common.ts';
import { REPORT_NAMES } from '../services/group-analytics.service.ts';
import { reportQuerySchema } from './group-analytics.schema.ts';

const metricsSchema = z.array(z.strictObject({ title: z.string(), value: z.number() }));

const reportSchema = z
  .strictObject({
    success: z.literal(true),
    reports: z.array(
      z.union([
        z.strictObject({ startDate: isoTimestamp, endDate: isoTimestamp, numStudentsUsed: z.number().int(), data: metricsSchema }),
        z.strictObject({ startDate: isoTimestamp, endDate: isoTimestamp, studentName: z.string(), studentId: z.string(), data: metricsSchema }),
      ]),
    ),
  })
  .meta({ id: 'GroupReport', description: 'One report per 7-day window (group level), or per window and student (`students=true`)' });

const missingParamsSchema = z.strictObject({ error: z.literal('Missing params'), message: z.string() }).meta({ id: 'MissingParams' });

const SUMMARIES: Record<(typeof REPORT_NAMES)[number], string> = {
  'live-lecture': 'Live lecture usage: sessions made and chat messages',
  tests: 'Test usage: tests and questions made, questions answered (in)correctly, chat questions',
  engagement: 'Minutes engaged',
  chat: 'Chat messages: the total, then Tutor Me, test, flashcard, material, live lecture and main chat messages',
  flashcards: 'Flashcards: sets made, flashcards made, chat questions',
  explainers: 'Explainer videos made',
};

export function documentGroupAnalyticsRoutes(registry: OpenAPIRegistry): void {
  for (const name of REPORT_NAMES) {
    documentApiRoute(registry, {
      tags: ['Group analytics'],
      method: 'post',
      path: `/api/groups/${name}`,
      summary: SUMMARIES[name],
      description:
        "The key's group must have an active plan, else 403 `{\"error\":\"Unauthorized\"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.",
      request: { query: reportQuerySchema },
      responses: {
        200: json('The reports', reportSchema),
        400: json(
          'A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body)',
          z.union([missingParamsSchema, errorBodySchema]),
        ),
      },
    });
  }
}

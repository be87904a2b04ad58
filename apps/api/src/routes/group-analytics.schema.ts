import { z } from 'zod';
import { missingParams } from '../errors.ts';
import { DAY_MS } from '../services/report-windows.ts';
import { rangeInstant } from './date-query.schema.ts';
import type { ReportQuery } from '../services/group-analytics.service.ts';

export const DEFAULT_START_DATE = '2025-01-01T00:00:00.000Z';

export const reportQuerySchema = z.object({
  startDate: rangeInstant('startDate', 'start').prefault(DEFAULT_START_DATE),
  endDate: rangeInstant('endDate', 'end').optional(),
  students: z.enum(['true', 'false'], { error: 'students must be true or false' }).default('false'),
});

/** A query the schema refuses is the analytics 400, naming every problem. */
export const invalidReportQuery = (error: z.ZodError) => missingParams(error.issues.map((i) => i.message).join('; '));

/** Parsed query -> report parameters, or the analytics 400 when the range is backwards or too long. */
export function reportRange(query: z.output<typeof reportQuerySchema>, now: Date, maxRangeDays: number): ReportQuery {
  const { startDate: start, endDate: end = now, students } = query;
  if (start > end) throw missingParams('startDate must not be after endDate');
  if (end.getTime() - start.getTime() > maxRangeDays * DAY_MS) {
    throw missingParams(`The range from startDate to endDate may span at most ${maxRangeDays} days`);
  }
  return { start, end, students: students === 'true' };
}

import { z } from 'zod';
import { SUMMARY_PERIODS } from '../services/usage-summary.service.ts';
import { rangeInstant } from './date-query.schema.ts';
/** The public service's `groupBy` values (`UsageGetSummaryParams`). */
export const GROUP_BY = ['user', 'group', 'model', 'endpoint'] as const;

export const usageSummaryQuerySchema = z
  .strictObject({
    period: z.enum(SUMMARY_PERIODS),
    startDate: rangeInstant('startDate', 'start'),
    endDate: rangeInstant('endDate', 'end'),
    groupBy: z.enum(GROUP_BY).optional(),
  })
  .refine((q) => q.startDate <= q.endDate, { path: ['startDate'], message: 'must not be after endDate' });

export type UsageSummaryQuery = z.infer<typeof usageSummaryQuerySchema>;

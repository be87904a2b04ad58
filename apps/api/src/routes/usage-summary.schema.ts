import { z } from 'zod';
import { SUMMARY_PERIODS } from '../services/usage-summary.service.ts';
import { rangeInstant } from './date-query.schema.ts';
/** The public service's `groupBy` values; quire records no AI model or API endpoint per event. */
const GROUP_BY = ['user', 'group', 'model', 'endpoint'] as const;

export const usageSummaryQuerySchema = z
  .strictObject({
    period: z.enum(SUMMARY_PERIODS),
    startDate: rangeInstant('startDate', 'start'),
    endDate: rangeInstant('endDate', 'end'),
    groupBy: z.enum(GROUP_BY).optional(),
  })
  .refine((q) => q.startDate <= q.endDate, { path: ['startDate'], message: 'must not be after endDate' })
  .refine((q) => q.groupBy !== 'model' && q.groupBy !== 'endpoint', {
    path: ['groupBy'],
    message: 'quire records no model or endpoint per usage event; group by user or group',
  });

export type UsageSummaryQuery = z.infer<typeof usageSummaryQuerySchema>;

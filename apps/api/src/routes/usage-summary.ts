import { Router } from 'express';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import { summarizeUsage } from '../services/usage-summary.service.ts';
import { usageSummaryQuerySchema } from './usage-summary.schema.ts';

/** `GET /api/v1/usage/summary`: usage per hour, day or month, in total or per student or group. */
export function usageSummaryRouter(ctx: ApiContext): Router {
  const router = Router();
  router.get('/summary', async (req, res) => {
    const query = usageSummaryQuerySchema.parse(req.query);
    const limits = { maxRangeDays: ctx.config.ANALYTICS_MAX_RANGE_DAYS, maxPeriods: ctx.config.USAGE_SUMMARY_MAX_PERIODS };
    res.json(await summarizeUsage(ctx, principalOf(req), query, limits));
  });
  return router;
}

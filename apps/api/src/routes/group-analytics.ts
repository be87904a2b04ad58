import { Router } from 'express';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import { buildGroupReport, groupWithActivePlan, REPORT_NAMES } from '../services/group-analytics.service.ts';
import { parseReportQuery } from './group-analytics.schema.ts';

/** `POST /api/groups/{live-lecture,tests,engagement,chat,flashcards,explainers}`: reports on the key's group. */
export function groupAnalyticsRouter(ctx: ApiContext): Router {
  const router = Router();
  for (const name of REPORT_NAMES) {
    router.post(`/${name}`, async (req, res) => {
      const now = new Date();
      const principal = principalOf(req);
      const groupId = groupWithActivePlan(principal, now);
      const query = parseReportQuery(req.query, now, ctx.config.ANALYTICS_MAX_RANGE_DAYS);
      res.json(await buildGroupReport(ctx, { organizationId: principal.organizationId, groupId }, name, query));
    });
  }
  return router;
}

import { sumUsageByWindow, type Db, type UsageCounter } from '@quire/db';
import type { Principal } from '../auth/principal.ts';
import { badRequest } from '../errors.ts';
import { DAY_MS, splitByUtcDay } from './report-windows.ts';
import { groupToList } from './usage-events.service.ts';
import { COUNTERS, EVENT_COUNTERS, figuresOf } from './usage-summary.service.ts';

/** The range and filters of `GET /api/v1/usage/stats`, as `routes/usage-stats.schema.ts` parses them. */
export interface UsageStatsQuery {
  startDate: Date;
  /** Now when absent. */
  endDate?: Date | undefined;
  groupId?: string | undefined;
  userId?: string | undefined;
}

/**
 * Usage totals over one range of the key's group (a key without a group: its organization's, or one group's), from
 * the same daily counters as the reports, summed per user so that active users are exact.
 */
export async function usageStats(ctx: { db: Db }, principal: Principal, q: UsageStatsQuery, maxRangeDays: number) {
  const start = q.startDate;
  const end = q.endDate ?? new Date();
  if (start > end)
    throw badRequest('startDate must not be after endDate', [{ field: 'startDate', message: 'after endDate' }]);
  if (end.getTime() - start.getTime() > maxRangeDays * DAY_MS) {
    throw badRequest(`The range from startDate to endDate may span at most ${maxRangeDays} days`);
  }
  const groupId = await groupToList(ctx.db, principal, q.groupId);
  const perUser = await sumUsageByWindow(ctx.db, {
    organizationId: principal.organizationId,
    groupId,
    segments: splitByUtcDay([{ index: 0, start: start.getTime(), end: end.getTime() }]),
    counters: COUNTERS,
    activity: EVENT_COUNTERS,
    by: 'user',
  });
  const counted = q.userId === undefined ? perUser : perUser.filter((row) => row.key === q.userId);
  const total = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<UsageCounter, number>;
  for (const row of counted) for (const c of COUNTERS) total[c] += row.sums[c];
  const figures = figuresOf(total);
  return {
    startDate: start.toISOString(),
    endDate: end.toISOString(),
    groupId: groupId ?? null,
    userId: q.userId ?? null,
    totalEvents: figures.events,
    eventsByType: figures.byType,
    engagedMs: figures.engagedMs,
    activeUsers: counted.length,
  };
}

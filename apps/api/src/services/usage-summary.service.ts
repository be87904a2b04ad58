import { DateTime } from 'luxon';
import {
  countApiCallsByEndpoint,
  sumUsageByWindow,
  USAGE_COUNTERS,
  REPORTED_EVENT_TYPES,
  type Db,
  type UsageCounter,
  type ReportedEventType,
} from '@quire/db';
import { badRequest } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { DAY_MS, splitByUtcDay, type ReportWindow } from './report-windows.ts';

export const SUMMARY_PERIODS = ['hourly', 'daily', 'monthly'] as const;

/** A usage summary's window and grouping, as `routes/usage-summary.schema.ts` parses them. */
export interface SummaryQuery {
  period: (typeof SUMMARY_PERIODS)[number];
  startDate: Date;
  endDate: Date;
  groupBy?: 'user' | 'group' | 'model' | 'endpoint' | undefined;
}

export const COUNTERS = Object.keys(USAGE_COUNTERS) as UsageCounter[];
/** Every counter that counts events; `engaged_ms` sums milliseconds instead. */
export const EVENT_COUNTERS = COUNTERS.filter((c) => !USAGE_COUNTERS[c].sumsValue);
const UNIT = { hourly: 'hour', daily: 'day', monthly: 'month' } as const;

/** UTC hours, days or calendar months that meet `[start, end]`, the first and last cut to the range. */
function summaryPeriods(period: SummaryQuery['period'], start: Date, end: Date, maxPeriods: number): ReportWindow[] {
  const periods: ReportWindow[] = [];
  let from = DateTime.fromJSDate(start, { zone: 'utc' }).startOf(UNIT[period]);
  while (from.toMillis() <= end.getTime()) {
    if (periods.length === maxPeriods)
      throw badRequest(`A summary may have at most ${maxPeriods} periods; shorten the range or use a longer period`);
    const next = from.plus({ [`${UNIT[period]}s`]: 1 });
    periods.push({
      index: periods.length,
      start: Math.max(from.toMillis(), start.getTime()),
      end: Math.min(next.toMillis() - 1, end.getTime()),
    });
    from = next;
  }
  return periods;
}

export interface UsageFigures {
  /** Events of every type. */
  events: number;
  /** Events per type, every type listed. */
  byType: Record<ReportedEventType, number>;
  /** Engaged milliseconds reported by `engagement` events. */
  engagedMs: number;
}

export function figuresOf(sums: Record<UsageCounter, number> | undefined): UsageFigures {
  const byType = Object.fromEntries(REPORTED_EVENT_TYPES.map((t) => [t, 0])) as Record<ReportedEventType, number>;
  for (const c of EVENT_COUNTERS) byType[USAGE_COUNTERS[c].type] += sums?.[c] ?? 0;
  return { events: EVENT_COUNTERS.reduce((n, c) => n + (sums?.[c] ?? 0), 0), byType, engagedMs: sums?.engaged_ms ?? 0 };
}

function add(total: Record<UsageCounter, number>, sums: Record<UsageCounter, number>): void {
  for (const c of COUNTERS) total[c] += sums[c];
}

type SummaryRow = {
  periodStart: string;
  periodEnd: string;
  userId?: string;
  userName?: string;
  groupId?: string;
  model?: string;
  endpoint?: string;
  durationMs?: number;
} & UsageFigures;

/** quire runs no model: `groupBy=model` files every event under this one. */
export const NO_MODEL = 'none';

const noFigures = (): UsageFigures => figuresOf(undefined);

/**
 * Usage per period of the key's group (or its organization's), from the same daily counters as the group
 * reports: whole UTC days from the counters, hours and cut days from the raw events. Without `groupBy` every
 * period is listed, zeros included; grouped, only the students or groups with activity in a period.
 */
export async function summarizeUsage(
  ctx: { db: Db },
  principal: Principal,
  q: SummaryQuery,
  limits: { maxRangeDays: number; maxPeriods: number },
): Promise<{
  period: string;
  startDate: string;
  endDate: string;
  groupBy: NonNullable<SummaryQuery['groupBy']> | null;
  totals: UsageFigures;
  summary: SummaryRow[];
}> {
  if (q.endDate.getTime() - q.startDate.getTime() > limits.maxRangeDays * DAY_MS) {
    throw badRequest(`The range from startDate to endDate may span at most ${limits.maxRangeDays} days`);
  }
  const periods = summaryPeriods(q.period, q.startDate, q.endDate, limits.maxPeriods);
  const header = {
    period: q.period,
    startDate: q.startDate.toISOString(),
    endDate: q.endDate.toISOString(),
    groupBy: q.groupBy ?? null,
  };
  if (q.groupBy === 'endpoint') return { ...header, ...(await apiCallsByEndpoint(ctx.db, principal, periods)) };
  const by = q.groupBy === 'user' || q.groupBy === 'group' ? q.groupBy : undefined;
  const rows = await sumUsageByWindow(ctx.db, {
    organizationId: principal.organizationId,
    groupId: principal.groupId ?? undefined,
    segments: splitByUtcDay(periods),
    counters: COUNTERS,
    activity: EVENT_COUNTERS,
    by,
  });
  const total = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<UsageCounter, number>;
  for (const r of rows) add(total, r.sums);
  const bounds = boundsOf;

  let summary: SummaryRow[];
  if (by === undefined) {
    const byWindow = new Map(rows.map((r) => [r.window, r.sums]));
    summary = periods.map((w) => ({ ...bounds(w), ...figuresOf(byWindow.get(w.index)) }));
    // By model: the one model, in the periods it has events (as a grouping lists only active keys).
    if (q.groupBy === 'model')
      summary = periods.flatMap((w) =>
        byWindow.has(w.index) ? [{ ...bounds(w), model: NO_MODEL, ...figuresOf(byWindow.get(w.index)) }] : [],
      );
  } else {
    rows.sort((a, b) => a.window - b.window || (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0));
    summary = rows.map((r) => ({
      ...bounds(periods[r.window]!),
      ...(by === 'user' ? { userId: r.key!, userName: r.name! } : { groupId: r.key! }),
      ...figuresOf(r.sums),
    }));
  }
  return { ...header, totals: figuresOf(total), summary };
}

const boundsOf = (w: ReportWindow) => ({
  periodStart: new Date(w.start).toISOString(),
  periodEnd: new Date(w.end).toISOString(),
});

/**
 * The `api_call` events per period and endpoint template (`GET /api/v1/materials/{id}`): `events` counts the
 * calls and `durationMs` sums their durations; the analytics figures are zero, no endpoint reports activity.
 */
async function apiCallsByEndpoint(
  db: Db,
  principal: Principal,
  periods: ReportWindow[],
): Promise<{ totals: UsageFigures; summary: SummaryRow[] }> {
  const rows = await countApiCallsByEndpoint(db, {
    organizationId: principal.organizationId,
    groupId: principal.groupId ?? undefined,
    windows: periods.map((w) => ({ window: w.index, from: new Date(w.start), to: new Date(w.end + 1) })),
  });
  const summary = rows.map((r) => ({
    ...boundsOf(periods[r.window]!),
    endpoint: r.endpoint,
    ...noFigures(),
    events: r.calls,
    durationMs: r.durationMs,
  }));
  return { totals: { ...noFigures(), events: rows.reduce((n, r) => n + r.calls, 0) }, summary };
}

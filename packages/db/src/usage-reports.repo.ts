import { sql, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';
import { counterOfEvent, USAGE_COUNTERS, type UsageCounter } from './usage-counters.ts';

/** The pieces of a report's windows, each tagged with its window's index. */
export interface ReportSegments {
  /**
   * Whole UTC days, read from the daily counters: the window of each day from `first` (`YYYY-MM-DD`) on,
   * -1 for a day the daily counters must not answer for (a null would make every lookup walk the array).
   */
  days: { first: string; windows: number[] };
  /** Instants `[from, to)`, read from the raw events. */
  raw: { window: number; from: Date; to: Date }[];
}

interface UsageScope {
  organizationId: string;
  /** One group's usage; the whole organization's when absent. */
  groupId?: string;
  segments: ReportSegments;
  /** The counters to sum. */
  counters: UsageCounter[];
  /** Count counters; only rows where one of them is above zero take part. */
  activity: UsageCounter[];
}

/** A group's report: a student is active in a window when their activity counters sum above zero. */
export interface UsageQuery extends UsageScope {
  groupId: string;
}

export interface StudentUsage {
  window: number;
  studentId: number;
  sums: Record<UsageCounter, number>;
}

export interface GroupUsage {
  window: number;
  activeStudents: number;
  sums: Record<UsageCounter, number>;
}

/** Sums per window and student, for the students active in that window. */
export async function sumUsageByStudent(db: Db, q: UsageQuery): Promise<StudentUsage[]> {
  const { rows } = await sql<Record<string, number>>`
    select win, student_id, ${sumsOf(q.counters)} from (${activityParts(q)}) as parts group by win, student_id`.execute(
    db,
  );
  return rows.map((r) => ({ window: r.win!, studentId: r.student_id!, sums: pick(r, q.counters) }));
}

/** Sums per window over the group, with the number of distinct students active in it. */
export async function sumUsageByGroup(db: Db, q: UsageQuery): Promise<GroupUsage[]> {
  const { rows } = await sql<Record<string, number>>`
    select win, count(*)::int as active_students, ${sumsOf(q.counters)}
    from (select win, student_id, ${sumsOf(q.counters)} from (${activityParts(q)}) as parts group by win, student_id) as per_student
    group by win`.execute(db);
  return rows.map((r) => ({ window: r.win!, activeStudents: r.active_students!, sums: pick(r, q.counters) }));
}

/** What a usage summary adds up per window: everything, or per student (`user`) or per group. */
export type UsageGrouping = 'user' | 'group' | undefined;

export interface UsageSummaryQuery extends UsageScope {
  by: UsageGrouping;
}

export interface WindowUsage {
  window: number;
  /** The student's user id, the group id, or null when not grouped. */
  key: string | null;
  /** The student's name when grouped by user. */
  name: string | null;
  sums: Record<UsageCounter, number>;
}

/** Sums per window (and per student or group), leaving out windows and keys without activity. */
export async function sumUsageByWindow(db: Db, q: UsageSummaryQuery): Promise<WindowUsage[]> {
  const [key, name, join] =
    q.by === 'user'
      ? [sql`s.user_id`, sql`s.name`, sql`join students as s on s.id = parts.student_id`]
      : q.by === 'group'
        ? [sql`parts.group_id`, sql`null::text`, sql``]
        : [sql`null::text`, sql`null::text`, sql``];
  const { rows } = await sql<Record<string, number | string | null>>`
    select win, ${key} as key, ${name} as name, ${sumsOf(q.counters)}
    from (${activityParts(q)}) as parts ${join}
    group by win, 2, 3`.execute(db);
  return rows.map((r) => ({
    window: r.win as number,
    key: r.key as string | null,
    name: r.name as string | null,
    sums: pick(r as Record<string, number>, q.counters),
  }));
}

const sumsOf = (counters: UsageCounter[]) =>
  sql.join(counters.map((c) => sql`sum(${sql.ref(c)})::bigint as ${sql.ref(c)}`));

const pick = (row: Record<string, number>, counters: UsageCounter[]) =>
  Object.fromEntries(counters.map((c) => [c, row[c] ?? 0])) as Record<UsageCounter, number>;

/** One row per (window, student, daily row or raw event) that holds activity, with the counters' values. */
function activityParts(q: UsageScope): RawBuilder<unknown> {
  const { days, raw } = q.segments;
  const dailyActivity = sql.join(
    q.activity.map((c) => sql.ref(`d.${c}`)),
    sql` + `,
  );
  // Activity counters only count events, so an event is activity exactly when its type is one of theirs.
  const activityTypes = [...new Set(q.activity.map((c) => USAGE_COUNTERS[c].type))];
  // One range scan over the days, each mapped to its window by position, beats a join per window.
  const windowOfDay = sql`(${days.windows}::int[])[d.day - ${days.first}::date + 1]`;
  const inGroup = (alias: string) =>
    q.groupId === undefined ? sql`true` : sql`${sql.ref(`${alias}.group_id`)} = ${q.groupId}`;
  return sql`
    select ${windowOfDay} as win, d.group_id, d.student_id, ${sql.join(q.counters.map((c) => sql`${sql.ref(`d.${c}`)} as ${sql.ref(c)}`))}
    from usage_daily as d
    where d.organization_id = ${q.organizationId} and ${inGroup('d')}
      and d.day >= ${days.first}::date and d.day < ${days.first}::date + ${days.windows.length}::int
      and ${windowOfDay} >= 0 and ${dailyActivity} > 0
    union all
    select s.win, e.*
    from unnest(${raw.map((r) => r.window)}::int[], ${raw.map((r) => r.from.toISOString())}::timestamptz[], ${raw.map((r) => r.to.toISOString())}::timestamptz[]) as s(win, lo, hi)
    cross join lateral (
      select e.group_id, e.student_id, ${sql.join(q.counters.map((c) => sql`${counterOfEvent(c, 'e')} as ${sql.ref(c)}`))}
      from usage_events as e
      where e.organization_id = ${q.organizationId} and ${inGroup('e')} and e.occurred_at >= s.lo and e.occurred_at < s.hi
        and e.type = any(${activityTypes}::usage_event_type[])
      -- A fence: one index range scan per segment. Flattened into a join, the planner may read all of the group's events.
      offset 0
    ) as e`;
}

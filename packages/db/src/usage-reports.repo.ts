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

export interface UsageQuery {
  organizationId: string;
  groupId: string;
  segments: ReportSegments;
  /** The counters to sum. */
  counters: UsageCounter[];
  /** Count counters; a student is active in a window when their sum is above zero. Inactive ones are left out. */
  activity: UsageCounter[];
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
    select win, student_id, ${sumsOf(q.counters)} from (${activityParts(q)}) as parts group by win, student_id`.execute(db);
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

const sumsOf = (counters: UsageCounter[]) => sql.join(counters.map((c) => sql`sum(${sql.ref(c)})::bigint as ${sql.ref(c)}`));

const pick = (row: Record<string, number>, counters: UsageCounter[]) =>
  Object.fromEntries(counters.map((c) => [c, row[c] ?? 0])) as Record<UsageCounter, number>;

/** One row per (window, student, daily row or raw event) that holds activity, with the counters' values. */
function activityParts(q: UsageQuery): RawBuilder<unknown> {
  const { days, raw } = q.segments;
  const dailyActivity = sql.join(q.activity.map((c) => sql.ref(`d.${c}`)), sql` + `);
  // Activity counters only count events, so an event is activity exactly when its type is one of theirs.
  const activityTypes = [...new Set(q.activity.map((c) => USAGE_COUNTERS[c].type))];
  // One range scan over the days, each mapped to its window by position, beats a join per window.
  const windowOfDay = sql`(${days.windows}::int[])[d.day - ${days.first}::date + 1]`;
  return sql`
    select ${windowOfDay} as win, d.student_id, ${sql.join(q.counters.map((c) => sql`${sql.ref(`d.${c}`)} as ${sql.ref(c)}`))}
    from usage_daily as d
    where d.organization_id = ${q.organizationId} and d.group_id = ${q.groupId}
      and d.day >= ${days.first}::date and d.day < ${days.first}::date + ${days.windows.length}::int
      and ${windowOfDay} >= 0 and ${dailyActivity} > 0
    union all
    select s.win, e.*
    from unnest(${raw.map((r) => r.window)}::int[], ${raw.map((r) => r.from.toISOString())}::timestamptz[], ${raw.map((r) => r.to.toISOString())}::timestamptz[]) as s(win, lo, hi)
    cross join lateral (
      select e.student_id, ${sql.join(q.counters.map((c) => sql`${counterOfEvent(c, 'e')} as ${sql.ref(c)}`))}
      from usage_events as e
      where e.organization_id = ${q.organizationId} and e.group_id = ${q.groupId} and e.occurred_at >= s.lo and e.occurred_at < s.hi
        and e.type = any(${activityTypes}::usage_event_type[])
      -- A fence: one index range scan per segment. Flattened into a join, the planner may read all of the group's events.
      offset 0
    ) as e`;
}

import { sql, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';
import { counterOfEvent, type UsageCounter } from './usage-counters.ts';

/** The pieces of a report's windows, each tagged with its window's index. */
export interface ReportSegments {
  /** Whole UTC days `[from, to)` (`YYYY-MM-DD`), read from the daily counters. */
  days: { window: number; from: string; to: string }[];
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
  const eventActivity = sql.join(q.activity.map((c) => counterOfEvent(c, 'e')), sql` + `);
  return sql`
    select s.win, d.student_id, ${sql.join(q.counters.map((c) => sql`${sql.ref(`d.${c}`)} as ${sql.ref(c)}`))}
    from unnest(${days.map((d) => d.window)}::int[], ${days.map((d) => d.from)}::date[], ${days.map((d) => d.to)}::date[]) as s(win, lo, hi)
    join usage_daily as d
      on d.organization_id = ${q.organizationId} and d.group_id = ${q.groupId} and d.day >= s.lo and d.day < s.hi
    where ${dailyActivity} > 0
    union all
    select s.win, e.student_id, ${sql.join(q.counters.map((c) => sql`${counterOfEvent(c, 'e')} as ${sql.ref(c)}`))}
    from unnest(${raw.map((r) => r.window)}::int[], ${raw.map((r) => r.from.toISOString())}::timestamptz[], ${raw.map((r) => r.to.toISOString())}::timestamptz[]) as s(win, lo, hi)
    join usage_events as e
      on e.organization_id = ${q.organizationId} and e.group_id = ${q.groupId} and e.occurred_at >= s.lo and e.occurred_at < s.hi
    where ${eventActivity} > 0`;
}

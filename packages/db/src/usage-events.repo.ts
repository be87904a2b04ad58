import { sql, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';
import type { UsageEventType } from './schema.ts';
import { addToDailyCounters } from './usage-counters.ts';

export interface NewUsageEvent {
  eventId: string;
  groupId: string;
  studentId: number;
  type: UsageEventType;
  correct: boolean | null;
  occurredAt: Date;
  value: number | null;
  properties: Record<string, unknown> | null;
}

/** Stores the events whose eventId is new to the organization; returns how many were new. */
export async function insertUsageEvents(db: Db, organizationId: string, events: NewUsageEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const column = <T>(pick: (e: NewUsageEvent) => T) => events.map(pick);
  return insertUsageEventsFrom(
    db,
    sql`(select ${organizationId}::text as organization_id, t.*
         from unnest(
           ${column((e) => e.eventId)}::text[],
           ${column((e) => e.groupId)}::text[],
           ${column((e) => e.studentId)}::bigint[],
           ${column((e) => e.type)}::usage_event_type[],
           ${column((e) => e.correct)}::boolean[],
           ${column((e) => e.occurredAt.toISOString())}::timestamptz[],
           ${column((e) => e.value)}::bigint[],
           ${column((e) => (e.properties ? JSON.stringify(e.properties) : null))}::jsonb[]
         ) as t(event_id, group_id, student_id, type, correct, occurred_at, value, properties))`,
  );
}

/**
 * Inserts the rows of `source` (a parenthesized query with the columns of usage_events but received_at)
 * that are new by (organization, eventId), and adds exactly those to the daily counters in the same
 * statement, so the counters never miss an event nor count a replay. The benchmark loads through here too.
 */
export async function insertUsageEventsFrom(db: Db, source: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ accepted: number }>`
    with inserted as (
      insert into usage_events (organization_id, event_id, group_id, student_id, type, correct, occurred_at, value, properties)
      select organization_id, event_id, group_id, student_id, type, correct, occurred_at, value, properties
      from ${source} as s
      order by organization_id, event_id
      on conflict (organization_id, event_id) do nothing
      returning organization_id, group_id, student_id, type, correct, occurred_at, value
    ), counted as (${addToDailyCounters(sql`inserted`)})
    select count(*)::int as accepted from inserted`.execute(db);
  return rows[0]!.accepted;
}

export interface UsageEventFilter {
  /** Only this group's events; all of the organization's when absent. */
  groupId?: string;
  from?: Date;
  to?: Date;
  type?: UsageEventType;
  userId?: string;
  limit: number;
  offset: number;
}

/** Newest first. */
export async function listUsageEvents(db: Db, organizationId: string, filter: UsageEventFilter) {
  let query = db
    .selectFrom('usage_events as e')
    .innerJoin('students as s', 's.id', 'e.student_id')
    .select([
      'e.event_id',
      'e.type',
      'e.group_id',
      'e.occurred_at',
      'e.value',
      'e.properties',
      'e.received_at',
      's.user_id',
      's.name as user_name',
    ])
    .where('e.organization_id', '=', organizationId);
  if (filter.groupId !== undefined) query = query.where('e.group_id', '=', filter.groupId);
  if (filter.from !== undefined) query = query.where('e.occurred_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('e.occurred_at', '<=', filter.to);
  if (filter.type !== undefined) query = query.where('e.type', '=', filter.type);
  if (filter.userId !== undefined)
    query = query.where('s.organization_id', '=', organizationId).where('s.user_id', '=', filter.userId);
  return query
    .orderBy('e.occurred_at', 'desc')
    .orderBy('e.event_id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

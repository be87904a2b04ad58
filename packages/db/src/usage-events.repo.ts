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
  /** With `groupId`: also the events of no group (quire's own: materials', API calls of keys without a group). */
  withOrganizationEvents?: boolean;
  /** Only the events about this resource (a material's id for quire's material events). */
  resourceId?: string;
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
    .leftJoin('students as s', 's.id', 'e.student_id')
    .select([
      'e.event_id',
      'e.type',
      'e.group_id',
      'e.occurred_at',
      'e.value',
      'e.properties',
      'e.received_at',
      'e.resource_id',
      's.user_id',
      's.name as user_name',
    ])
    .where('e.organization_id', '=', organizationId);
  const { groupId } = filter;
  if (groupId !== undefined)
    query = filter.withOrganizationEvents
      ? query.where((w) => w.or([w('e.group_id', '=', groupId), w('e.group_id', 'is', null)]))
      : query.where('e.group_id', '=', groupId);
  if (filter.resourceId !== undefined) query = query.where('e.resource_id', '=', filter.resourceId);
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

/** One API request as the api_call recorder saw it (see apps/api's middleware/api-call-recorder.ts). */
export interface ApiCallEvent {
  eventId: string;
  organizationId: string;
  /** The key's group; null for a key of the whole organization. */
  groupId: string | null;
  occurredAt: Date;
  durationMs: number;
  properties: { endpoint: string; method: string; status: number; durationMs: number; keyId: string };
}

/** Stores a batch of `api_call` events in one statement; they belong to no student and count in no report. */
export async function insertApiCallEvents(db: Db, events: ApiCallEvent[]): Promise<void> {
  if (events.length === 0) return;
  const column = <T>(pick: (e: ApiCallEvent) => T) => events.map(pick);
  await sql`
    insert into usage_events (organization_id, event_id, group_id, type, occurred_at, value, properties)
    select t.organization_id, t.event_id, t.group_id, 'api_call', t.occurred_at, t.value, t.properties
    from unnest(
      ${column((e) => e.organizationId)}::text[],
      ${column((e) => e.eventId)}::text[],
      ${column((e) => e.groupId)}::text[],
      ${column((e) => e.occurredAt.toISOString())}::timestamptz[],
      ${column((e) => Math.round(e.durationMs))}::bigint[],
      ${column((e) => JSON.stringify(e.properties))}::jsonb[]
    ) as t(organization_id, event_id, group_id, occurred_at, value, properties)
    order by t.organization_id, t.event_id
    on conflict (organization_id, event_id) do nothing`.execute(db);
}

/** Drops the `api_call` events older than `before`, at most `limit` at a time; returns how many went. */
export async function deleteApiCallEventsBefore(db: Db, before: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    with gone as (
      delete from usage_events
      where ctid in (select ctid from usage_events where type = 'api_call' and occurred_at < ${before} limit ${limit})
      returning 1
    )
    select count(*)::int as deleted from gone`.execute(db);
  return rows[0]!.deleted;
}

/** Where an `api_call` event reported by a client without `properties.endpoint` is counted. */
export const UNKNOWN_ENDPOINT = 'unknown';

export interface ApiCallsOfEndpoint {
  window: number;
  endpoint: string;
  calls: number;
  durationMs: number;
}

/** `api_call` events per window and endpoint template (windows are `[from, to)`), leaving out empty ones. */
export async function countApiCallsByEndpoint(
  db: Db,
  q: { organizationId: string; groupId?: string | undefined; windows: { window: number; from: Date; to: Date }[] },
): Promise<ApiCallsOfEndpoint[]> {
  const inGroup = q.groupId === undefined ? sql`true` : sql`e.group_id = ${q.groupId}`;
  const { rows } = await sql<ApiCallsOfEndpoint>`
    select w.win as "window", coalesce(e.properties->>'endpoint', ${UNKNOWN_ENDPOINT}) as endpoint, count(*)::int as calls,
      coalesce(sum(e.value), 0)::float8 as "durationMs"
    from unnest(${q.windows.map((w) => w.window)}::int[], ${q.windows.map((w) => w.from.toISOString())}::timestamptz[],
      ${q.windows.map((w) => w.to.toISOString())}::timestamptz[]) as w(win, lo, hi)
    join usage_events as e on e.organization_id = ${q.organizationId} and e.type = 'api_call'
      and e.occurred_at >= w.lo and e.occurred_at < w.hi and ${inGroup}
    group by 1, 2
    order by 1, 2`.execute(db);
  return rows;
}

import {
  addGroupMembers,
  existingGroupIds,
  insertUsageEvents,
  listUsageEvents as listUsageEventRows,
  upsertStudents,
  type Db,
  type StudentSighting,
  type UsageEventFilter,
  type UsageEventType,
} from '@quire/db';
import type { Principal } from '../auth/principal.ts';
import { badEvent, badRequest, notFound } from '../errors.ts';

/** One usage event as the api accepted it (`routes/usage-events.schema.ts` checks the wire form). */
export interface AcceptedUsageEvent {
  eventId: string;
  type: UsageEventType;
  userId: string;
  userName?: string | null | undefined;
  groupId?: string | null | undefined;
  occurredAt: Date;
  value?: number | null | undefined;
  properties?: Record<string, unknown> | null | undefined;
}

/**
 * A key with a group files every event under it (an event's `groupId` may repeat it, not contradict it);
 * a key without a group serves the whole organization, so each event must name one of its groups.
 */
async function groupOfEachEvent(db: Db, principal: Principal, events: AcceptedUsageEvent[]): Promise<string[]> {
  if (principal.groupId) {
    const keyGroup = principal.groupId;
    return events.map((e, index) => {
      if (e.groupId != null && e.groupId !== keyGroup)
        throw badEvent(index, 'groupId', "does not match the API key's group");
      return keyGroup;
    });
  }
  const named = [...new Set(events.flatMap((e) => (e.groupId != null ? [e.groupId] : [])))];
  const known = await existingGroupIds(db, principal.organizationId, named);
  return events.map((e, index) => {
    if (e.groupId == null) throw badEvent(index, 'groupId', 'is required with an API key that has no group');
    if (!known.has(e.groupId)) throw badEvent(index, 'groupId', 'Group not found');
    return e.groupId;
  });
}

/** Per user, the name carried by their latest event in the batch (if any carries one). */
function sightingsOf(events: AcceptedUsageEvent[]): StudentSighting[] {
  const byUser = new Map<string, StudentSighting>();
  for (const e of events) {
    const seen = byUser.get(e.userId);
    const newer = e.userName != null && (seen?.nameAsOf === undefined || e.occurredAt >= seen.nameAsOf);
    if (!seen || newer)
      byUser.set(
        e.userId,
        e.userName != null ? { userId: e.userId, name: e.userName, nameAsOf: e.occurredAt } : { userId: e.userId },
      );
  }
  return [...byUser.values()];
}

/**
 * Stores a batch atomically: students created or renamed, added to their event's group, events stored once
 * per eventId and counted into the daily counters, all in one transaction.
 */
export async function recordUsageEvents(
  ctx: { db: Db },
  principal: Principal,
  events: AcceptedUsageEvent[],
): Promise<{ accepted: number; duplicates: number }> {
  const { organizationId } = principal;
  const groups = await groupOfEachEvent(ctx.db, principal, events);
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    const students = await upsertStudents(trx, organizationId, sightingsOf(events));
    const studentOf = (e: AcceptedUsageEvent) => students.get(e.userId)!;
    const memberships = new Map(
      events.map((e, i) => [`${groups[i]}\n${e.userId}`, { groupId: groups[i]!, studentId: studentOf(e) }]),
    );
    await addGroupMembers(trx, organizationId, [...memberships.values()]);
    return insertUsageEvents(
      trx,
      organizationId,
      events.map((e, i) => ({
        eventId: e.eventId,
        groupId: groups[i]!,
        studentId: studentOf(e),
        type: e.type,
        correct: e.type === 'test_question_answered' ? (e.properties!.correct as boolean) : null,
        occurredAt: e.occurredAt,
        value: e.value ?? null,
        properties: e.properties ?? null,
      })),
    );
  });
  return { accepted, duplicates: events.length - accepted };
}

export interface UsageEventView {
  eventId: string;
  type: string;
  userId: string | null;
  userName: string | null;
  groupId: string | null;
  resourceId: string | null;
  occurredAt: string;
  value: number | null;
  properties: Record<string, unknown> | null;
  receivedAt: string;
}

/** The one group a listing may read: the key's own, or any of its organization's for a key without a group. */
export async function groupToList(
  db: Db,
  principal: Principal,
  asked: string | undefined,
): Promise<string | undefined> {
  if (principal.groupId) {
    if (asked !== undefined && asked !== principal.groupId) {
      throw badRequest("groupId does not match the API key's group", [
        { field: 'groupId', message: "not the key's group" },
      ]);
    }
    return principal.groupId;
  }
  if (asked !== undefined && !(await existingGroupIds(db, principal.organizationId, [asked])).has(asked))
    throw notFound('Group');
  return asked;
}

/** A key with a group sees that group's events; a key without one sees its organization's, or one group's. */
export async function listUsageEvents(
  ctx: { db: Db },
  principal: Principal,
  filter: UsageEventFilter,
): Promise<{ events: UsageEventView[]; limit: number; offset: number; hasMore: boolean }> {
  const rows = await listUsageEventRows(ctx.db, principal.organizationId, {
    ...filter,
    groupId: await groupToList(ctx.db, principal, filter.groupId),
    // A key with a group sees the organization's own events too: its materials are the organization's.
    withOrganizationEvents: principal.groupId != null,
    limit: filter.limit + 1,
  });
  const events = rows.slice(0, filter.limit).map((r) => ({
    eventId: r.event_id,
    type: r.type,
    userId: r.user_id,
    userName: r.user_name,
    groupId: r.group_id,
    resourceId: r.resource_id,
    occurredAt: r.occurred_at.toISOString(),
    value: r.value,
    properties: r.properties,
    receivedAt: r.received_at.toISOString(),
  }));
  return { events, limit: filter.limit, offset: filter.offset, hasMore: rows.length > filter.limit };
}

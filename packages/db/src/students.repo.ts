import { sql } from 'kysely';
import type { Db } from './connection.ts';

export interface StudentSighting {
  userId: string;
  /** Absent: a new student is named after its user id and an existing one keeps its name. */
  name?: string;
  /** When `name` was true; a name older than the stored one is ignored. */
  nameAsOf?: Date;
}

/**
 * Creates the students not seen before and renames those with a newer name; returns the internal id of
 * every user id given. Rows are written in user id order so concurrent batches cannot deadlock.
 */
export async function upsertStudents(
  db: Db,
  organizationId: string,
  sightings: StudentSighting[],
): Promise<Map<string, number>> {
  const named = sightings.filter((s) => s.name !== undefined);
  const unnamed = sightings.filter((s) => s.name === undefined);
  if (named.length > 0) {
    await sql`
      insert into students (organization_id, user_id, name, name_as_of)
      select ${organizationId}, t.user_id, t.name, t.name_as_of
      from unnest(
        ${named.map((s) => s.userId)}::text[],
        ${named.map((s) => s.name)}::text[],
        ${named.map((s) => (s.nameAsOf ?? new Date()).toISOString())}::timestamptz[]
      ) as t(user_id, name, name_as_of)
      order by t.user_id
      on conflict (organization_id, user_id) do update
        set name = excluded.name, name_as_of = excluded.name_as_of, updated_at = now()
        where excluded.name_as_of > students.name_as_of
           or (excluded.name_as_of = students.name_as_of and excluded.name <> students.name)`.execute(db);
  }
  if (unnamed.length > 0) {
    await sql`
      insert into students (organization_id, user_id, name)
      select ${organizationId}, t.user_id, t.user_id
      from unnest(${unnamed.map((s) => s.userId)}::text[]) as t(user_id)
      order by t.user_id
      on conflict (organization_id, user_id) do nothing`.execute(db);
  }
  const rows = await db
    .selectFrom('students')
    .select(['id', 'user_id'])
    .where('organization_id', '=', organizationId)
    .where(
      'user_id',
      'in',
      sightings.map((s) => s.userId),
    )
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.id]));
}

export async function addGroupMembers(
  db: Db,
  organizationId: string,
  members: { groupId: string; studentId: number }[],
): Promise<void> {
  if (members.length === 0) return;
  await sql`
    insert into group_members (organization_id, group_id, student_id)
    select ${organizationId}, t.group_id, t.student_id
    from unnest(${members.map((m) => m.groupId)}::text[], ${members.map((m) => m.studentId)}::bigint[]) as t(group_id, student_id)
    order by t.group_id, t.student_id
    on conflict do nothing`.execute(db);
}

export interface GroupMember {
  id: number;
  userId: string;
  name: string;
}

export async function listGroupMembers(db: Db, organizationId: string, groupId: string): Promise<GroupMember[]> {
  return db
    .selectFrom('group_members as m')
    .innerJoin('students as s', 's.id', 'm.student_id')
    .select(['s.id', 's.user_id as userId', 's.name'])
    .where('m.organization_id', '=', organizationId)
    .where('m.group_id', '=', groupId)
    .orderBy('s.user_id')
    .execute();
}

import type { Db } from './connection.ts';
import { newId } from './ids.ts';

export interface NewGroup {
  organizationId: string;
  name: string;
  planValidFrom?: Date | null;
  planValidUntil?: Date | null;
}

export async function createGroup(db: Db, group: NewGroup): Promise<{ id: string }> {
  return db
    .insertInto('groups')
    .values({
      id: newId(),
      organization_id: group.organizationId,
      name: group.name,
      plan_valid_from: group.planValidFrom ?? null,
      plan_valid_until: group.planValidUntil ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function findGroup(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Which of `ids` are groups of this organization. */
export async function existingGroupIds(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('groups')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** For the operator's CLI, which names a group without its organization. */
export async function findGroupForAdmin(db: Db, id: string) {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

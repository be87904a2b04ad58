import type { Db } from './connection.ts';
import { newId } from './ids.ts';

export async function createOrganization(db: Db, name: string): Promise<{ id: string }> {
  return db.insertInto('organizations').values({ id: newId(), name }).returning('id').executeTakeFirstOrThrow();
}

export async function findOrganization(db: Db, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

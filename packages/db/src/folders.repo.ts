import { sql } from 'kysely';
import type { Db } from './connection.ts';
import { containsPattern } from './like.ts';
import type { Folder } from './schema.ts';

export interface NewFolderInput {
  id: string;
  organizationId: string;
  name: string;
  parentFolderId: string | null;
  description: string | null;
  color: string | null;
  icon: string | null;
}

export async function insertFolder(db: Db, f: NewFolderInput): Promise<Folder> {
  const now = new Date();
  return db
    .insertInto('folders')
    .values({
      organization_id: f.organizationId,
      id: f.id,
      name: f.name,
      parent_folder_id: f.parentFolderId,
      description: f.description,
      color: f.color,
      icon: f.icon,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findFolder(db: Db, organizationId: string, id: string): Promise<Folder | undefined> {
  return db
    .selectFrom('folders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Locks the folder row until the transaction ends. Adding a material or a subfolder to it needs a key-share
 * lock on this row (its foreign key check), so nothing can enter the folder while it is being deleted.
 */
export async function lockFolder(db: Db, organizationId: string, id: string): Promise<Folder | undefined> {
  return db
    .selectFrom('folders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Serialises changes to an organization's folder tree until the transaction ends. Two moves checked at the
 * same time (A into B, B into A) could each see no cycle; one at a time, the second sees the first.
 */
export async function lockFolderTree(db: Db, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`folders:${organizationId}`}, 0))`.execute(db);
}

/** Which of `ids` name folders of this organization. */
export async function existingFolderIds(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('folders')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export interface ListFoldersQuery {
  parentFolderId?: string;
  search?: string;
  limit: number;
  offset: number;
}

export async function listFolders(
  db: Db,
  organizationId: string,
  q: ListFoldersQuery,
): Promise<{ rows: Folder[]; total: number }> {
  let base = db.selectFrom('folders').where('organization_id', '=', organizationId);
  if (q.parentFolderId !== undefined) base = base.where('parent_folder_id', '=', q.parentFolderId);
  if (q.search) base = base.where('name', 'ilike', containsPattern(q.search));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('name').orderBy('id').limit(q.limit).offset(q.offset).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function listAllFolders(db: Db, organizationId: string): Promise<Folder[]> {
  return db
    .selectFrom('folders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function listSubfolders(db: Db, organizationId: string, parentId: string): Promise<Folder[]> {
  return db
    .selectFrom('folders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('parent_folder_id', '=', parentId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function countSubfolders(db: Db, organizationId: string, id: string): Promise<number> {
  const row = await db
    .selectFrom('folders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('parent_folder_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `id` and every folder above it, nearest first. */
export async function folderAncestry(db: Db, organizationId: string, id: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive ancestry (id, parent_folder_id, depth) as (
      select id, parent_folder_id, 0 from folders where organization_id = ${organizationId} and id = ${id}
      union all
      select f.id, f.parent_folder_id, a.depth + 1
      from folders f join ancestry a on f.id = a.parent_folder_id
      -- The tree has no cycles (moves check for them); the bound only keeps a broken row from looping forever.
      where f.organization_id = ${organizationId} and a.depth < 10000
    )
    select id from ancestry order by depth
  `.execute(db);
  return rows.map((r) => r.id);
}

export async function updateFolder(
  db: Db,
  organizationId: string,
  id: string,
  changes: {
    name?: string;
    description?: string | null;
    parentFolderId?: string | null;
    color?: string | null;
    icon?: string | null;
  },
): Promise<Folder | undefined> {
  return db
    .updateTable('folders')
    .set({
      updated_at: new Date(),
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.parentFolderId !== undefined ? { parent_folder_id: changes.parentFolderId } : {}),
      ...(changes.color !== undefined ? { color: changes.color } : {}),
      ...(changes.icon !== undefined ? { icon: changes.icon } : {}),
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deleted materials may still name the folder; they let go of it so the folder row can go. */
export async function deleteFolder(db: Db, organizationId: string, id: string): Promise<void> {
  await db
    .updateTable('materials')
    .set({ folder_id: null })
    .where('organization_id', '=', organizationId)
    .where('folder_id', '=', id)
    .where('status', '=', 'deleted')
    .execute();
  await db.deleteFrom('folders').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

import { sql } from 'kysely';
import type { Db } from './connection.ts';
import { containsPattern } from './like.ts';
import { materialFromRow, type Material, type MaterialStatus } from '@quire/material';

/** A live (not deleted) material of this organization. */
export async function findMaterial(db: Db, organizationId: string, id: string): Promise<Material | undefined> {
  const row = await db
    .selectFrom('materials')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  return row && materialFromRow(row);
}

/** For the worker, which holds only the material id from its job; any status. */
export async function findMaterialForProcessing(db: Db, id: string): Promise<Material | undefined> {
  const row = await db.selectFrom('materials').selectAll().where('id', '=', id).executeTakeFirst();
  return row && materialFromRow(row);
}

export interface ListMaterialsQuery {
  folderId?: string;
  search?: string;
  limit: number;
  offset: number;
  /** Left out by the query, so they are neither sent nor parsed: metadata keys, and content.text (emptied). */
  omit?: { metadataKeys: string[]; contentText: boolean };
}

/** The condition on `materials` of a listing: an organization's live materials, in a folder, matching a name. */
const listedWhere = (organizationId: string, q: Pick<ListMaterialsQuery, 'folderId' | 'search'>) =>
  sql<boolean>`organization_id = ${organizationId} and status <> 'deleted'${
    q.folderId !== undefined ? sql` and folder_id = ${q.folderId}` : sql``
  }${q.search ? sql` and name ilike ${containsPattern(q.search)}` : sql``}`;

/**
 * A row's version: its `xmin`, the transaction that wrote the row as it is now. Every update writes a new row
 * version with a new `xmin`, so what was derived from a row stays right while its version is unchanged.
 */
const rowVersion = sql<string>`xmin::text`;

export interface MaterialVersion {
  id: string;
  version: string;
}

/**
 * The ids and row versions of one page of live materials, newest first (the listing index serves it, reading
 * until the page is full), and the organization's counters read by the same statement (none on an empty page).
 */
export async function listMaterialVersions(
  db: Db,
  organizationId: string,
  q: Omit<ListMaterialsQuery, 'omit'>,
): Promise<{ rows: MaterialVersion[]; counters?: { live: number; listingVersion: number } }> {
  // Written as SQL rather than built: the api's most frequent query, whose building and compiling took 5 % of a
  // list request's CPU.
  const { rows } = await sql<MaterialVersion & { live: number | null; listing_version: number | null }>`
    select id, ${rowVersion} as version,
      (select live from material_counts where organization_id = ${organizationId}) as live,
      (select listing_version from material_counts where organization_id = ${organizationId}) as listing_version
    from materials
    where ${listedWhere(organizationId, q)}
    order by created_at desc, id desc
    limit ${q.limit} offset ${q.offset}`.execute(db);
  const first = rows[0];
  return {
    rows: rows.map((r) => ({ id: r.id, version: r.version })),
    counters: first && { live: first.live ?? 0, listingVersion: first.listing_version ?? 0 },
  };
}

/** Live materials of this organization among `ids`, each with its row version, in no particular order. */
export async function findVersionedMaterials(
  db: Db,
  organizationId: string,
  ids: string[],
  omit?: ListMaterialsQuery['omit'],
): Promise<{ material: Material; version: string }[]> {
  if (ids.length === 0) return [];
  const { metadataKeys = [], contentText = false } = omit ?? {};
  const rows = await db
    .selectFrom('materials')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('status', '<>', 'deleted')
    .select([
      'id',
      'organization_id',
      'folder_id',
      'name',
      'content_type',
      'status',
      'references',
      'extract_images',
      'storage_bytes',
      'derived_bytes',
      'processing_started_at',
      'created_at',
      'updated_at',
      rowVersion.as('version'),
      sql<unknown>`metadata - ${metadataKeys}::text[]`.as('metadata'),
      // Emptied rather than removed: a text material's source is read with its text field.
      (contentText ? sql<unknown>`jsonb_set(content, '{text}', '""', false)` : sql<unknown>`content`).as('content'),
    ])
    .execute();
  return rows.map(({ version, ...row }) => ({ material: materialFromRow(row), version }));
}

/** The row version of a live material of this organization. */
export async function findMaterialVersion(db: Db, organizationId: string, id: string): Promise<string | undefined> {
  // As SQL, like listMaterialVersions: it runs for every GET /{id}.
  const { rows } = await sql<{ version: string }>`
    select ${rowVersion} as version from materials
    where organization_id = ${organizationId} and id = ${id} and status <> 'deleted'`.execute(db);
  return rows[0]?.version;
}

/**
 * Counts the live materials a folder or a search holds, reading each (the name search's trigram index finds
 * the candidates, the rows decide), with the organization's listing version read in the same snapshot: the
 * count stays exact for as long as the version does.
 */
export async function countListedMaterials(
  db: Db,
  organizationId: string,
  q: Pick<ListMaterialsQuery, 'folderId' | 'search'>,
): Promise<{ total: number; listingVersion: number }> {
  const row = await db
    .selectFrom('materials')
    .where(listedWhere(organizationId, q))
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      eb
        .selectFrom('material_counts')
        .select('listing_version')
        .where('organization_id', '=', organizationId)
        .as('listing_version'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), listingVersion: Number(row.listing_version ?? 0) };
}

/** The organization's live materials and its listing version, from the counters the triggers keep (no row: none yet). */
export async function materialCounters(
  db: Db,
  organizationId: string,
): Promise<{ live: number; listingVersion: number }> {
  const row = await db
    .selectFrom('material_counts')
    .select(['live', 'listing_version'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return { live: row?.live ?? 0, listingVersion: row?.listing_version ?? 0 };
}

/** Which of `ids` name live (not deleted) materials of this organization. */
export async function liveMaterialIds(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('materials')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('status', '<>', 'deleted')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Locks one material's row while it is still in one of `from`, without changing it: a publish takes this
 * first, writes the passages, and moves the status last, so that the organization-wide rows a status change
 * updates (counts, listing version) stay locked only for the moment before the commit. A second run of the
 * same material waits here and then finds it no longer processing.
 */
export async function lockMaterialIn(db: Db, id: string, from: readonly MaterialStatus[]): Promise<boolean> {
  const row = await db
    .selectFrom('materials')
    .select('id')
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** Materials stuck in `processing` since before `olderThan` (their job was lost or keeps dying). */
export async function findStaleProcessing(
  db: Db,
  olderThan: Date,
  limit = 100,
): Promise<{ id: string; organizationId: string }[]> {
  const rows = await db
    .selectFrom('materials')
    .select(['id', 'organization_id'])
    .where('status', '=', 'processing')
    .where('processing_started_at', '<', olderThan)
    .orderBy('processing_started_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, organizationId: r.organization_id }));
}

/**
 * Original keys of deleted materials created after `createdAfter`: their upload URLs may still accept a PUT,
 * which would write an object nothing owns.
 */
export async function deletedOriginalKeys(db: Db, createdAfter: Date, limit = 1000): Promise<string[]> {
  const rows = await db
    .selectFrom('materials')
    .select(sql<string>`content->>'s3Key'`.as('key'))
    .where('status', '=', 'deleted')
    .where('created_at', '>', createdAfter)
    .where(sql<boolean>`content ? 's3Key'`)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.key);
}

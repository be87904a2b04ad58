import { sql, type RawBuilder } from 'kysely';
import type { Db } from '@quire/db';
import { assertTransitions, type Material, type MaterialMetadata, type MaterialStatus } from '@quire/material';
import { insertMaterial, transitionMaterial, type NewMaterialInput } from './material-writes.ts';

/*
 * Materials put in a given state for tests and benchmarks, through the lifecycle's own writes: each is created
 * in a status a material starts in and moved from there by the transition table's moves. Only the testkit
 * imports this module (`@quire/lifecycle/seed`; the linter refuses it elsewhere), and tests and benchmarks
 * reach it through the testkit.
 */

/** The passages of a material, written as a publish writes them (in the caller's transaction): for benchmarks. */
export { replaceSearchPassages as seedPassages } from './search-passages.ts';

/** The status a material in `status` was created in. */
const startOf = (status: MaterialStatus): MaterialStatus => (status === 'pending_upload' ? status : 'processing');

/** One material in `status` (created, then moved), with its metadata. */
export async function seedMaterial(
  db: Db,
  input: Omit<NewMaterialInput, 'status'> & { status: MaterialStatus },
): Promise<Material> {
  return db.transaction().execute(async (trx) => {
    const start = startOf(input.status);
    const created = await insertMaterial(trx, { ...input, status: start });
    if (input.status === start) return created;
    const moved = await transitionMaterial(trx, created.id, [start], input.status, { metadata: created.metadata });
    if (!moved) throw new Error(`material ${created.id} was not ${start}`);
    return moved;
  });
}

/**
 * Moves materials in one of `from` to `to` (with `metadata` when given) by the transition table; returns how
 * many moved. For a test standing in for a step (the worker's publish, say) that it does not run.
 */
export async function seedMove(
  db: Db,
  ids: string[],
  from: readonly MaterialStatus[],
  to: MaterialStatus,
  changes: { metadata?: MaterialMetadata } = {},
): Promise<number> {
  let moved = 0;
  for (const id of ids) if (await transitionMaterial(db, id, from, to, changes)) moved++;
  return moved;
}

/** A column of `materials` a bulk seed's query may return. */
type SeededColumn =
  | 'id'
  | 'organization_id'
  | 'folder_id'
  | 'name'
  | 'content_type'
  | 'status'
  | 'content'
  | 'metadata'
  | 'references'
  | 'extract_images'
  | 'storage_bytes'
  | 'derived_bytes'
  | 'processing_started_at'
  | 'created_at'
  | 'updated_at';

/**
 * Many materials at once, from a query returning `columns` in that order (generated in the database, as a
 * benchmark's hundred thousand rows are), `status` being where each row ends: they are inserted in the status
 * they start in, then moved in bulk, status by status, each move checked against the transition table. Their
 * timestamps stay as the query gives them. Returns how many were inserted.
 */
export async function seedMaterials(
  db: Db,
  columns: readonly SeededColumn[],
  rows: RawBuilder<unknown>,
): Promise<number> {
  if (!columns.includes('status')) throw new Error('a seed names the status each material ends in');
  return db.transaction().execute(async (trx) => {
    const named = sql.raw(columns.map((c) => `"${c}"`).join(', '));
    await sql`create temporary table seeded_materials on commit drop as select * from (${rows}) as s(${named})`.execute(
      trx,
    );
    const starting = sql.raw(
      columns
        .map((c) =>
          c === 'status' ? `case when status = 'pending_upload' then status else 'processing' end` : `"${c}"`,
        )
        .join(', '),
    );
    const inserted = await sql`insert into materials (${named}) select ${starting} from seeded_materials`.execute(trx);
    const { rows: targets } = await sql<{ status: MaterialStatus }>`
      select distinct status from seeded_materials where status not in ('pending_upload', 'processing')`.execute(trx);
    for (const { status } of targets) {
      assertTransitions(['processing'], status);
      await sql`
        update materials m set status = s.status${columns.includes('updated_at') ? sql`, updated_at = s.updated_at` : sql``}
        from seeded_materials s
        where m.id = s.id and s.status = ${status} and m.status = 'processing'`.execute(trx);
    }
    return Number(inserted.numAffectedRows ?? 0);
  });
}

import { sql } from 'kysely';
import type { Db } from './connection.ts';

/** The text search configuration of `material_chunks.search_vector` (migration 0006); queries must match it. */
const TEXT_SEARCH_CONFIG = 'english';
/** Rows per INSERT: 7 parameters each stays far below Postgres's 65,535-parameter limit. */
const INSERT_BATCH = 500;

export interface ChunkInput {
  text: string;
  page?: number;
  chapter?: number;
  startMs?: number;
  endMs?: number;
}

/** Replaces every chunk of a material; run it in the transaction that publishes the new result. */
export async function replaceChunks(db: Db, organizationId: string, materialId: string, chunks: ChunkInput[]): Promise<void> {
  await deleteChunks(db, materialId);
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const rows = chunks.slice(start, start + INSERT_BATCH).map((chunk, i) => ({
      material_id: materialId,
      chunk_index: start + i,
      organization_id: organizationId,
      text: chunk.text,
      page: chunk.page ?? null,
      chapter: chunk.chapter ?? null,
      start_ms: chunk.startMs ?? null,
      end_ms: chunk.endMs ?? null,
    }));
    await db.insertInto('material_chunks').values(rows).execute();
  }
}

export async function deleteChunks(db: Db, materialId: string): Promise<void> {
  await db.deleteFrom('material_chunks').where('material_id', '=', materialId).execute();
}

export interface ChunkSearch {
  query: string;
  limit: number;
  materialIds?: string[];
  /** Folders whose materials are searched, each with all of its subfolders. */
  folderIds?: string[];
}

export interface ChunkHit {
  material_id: string;
  material_name: string;
  content_type: string;
  chunk_index: number;
  text: string;
  page: number | null;
  chapter: number | null;
  start_ms: number | null;
  end_ms: number | null;
  score: number;
}

/** The best-ranked passages of the organization's active materials for a web-search-style query. */
export async function searchChunks(db: Db, organizationId: string, q: ChunkSearch): Promise<ChunkHit[]> {
  const config = sql.lit(TEXT_SEARCH_CONFIG);
  const inFolders = q.folderIds
    ? sql`and m.folder_id in (select id from scope)`
    : sql``;
  const inMaterials = q.materialIds ? sql`and m.id in (${sql.join(q.materialIds)})` : sql``;
  const scope = q.folderIds
    ? sql`with recursive scope (id) as (
        select id from folders where organization_id = ${organizationId} and id in (${sql.join(q.folderIds)})
        union
        select f.id from folders f join scope s on f.parent_folder_id = s.id where f.organization_id = ${organizationId}
      )`
    : sql``;
  const { rows } = await sql<ChunkHit>`
    ${scope}
    select c.material_id, m.name as material_name, m.content_type, c.chunk_index, c.text,
           c.page, c.chapter, c.start_ms, c.end_ms,
           ts_rank_cd(c.search_vector, query) as score
    from material_chunks c
    join materials m on m.id = c.material_id,
         websearch_to_tsquery(${config}::regconfig, ${q.query}) query
    where c.organization_id = ${organizationId}
      and m.organization_id = ${organizationId}
      and m.status = 'active'
      and c.search_vector @@ query
      ${inMaterials}
      ${inFolders}
    order by score desc, c.material_id, c.chunk_index
    limit ${q.limit}
  `.execute(db);
  return rows;
}

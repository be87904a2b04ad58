import { sql, type Kysely } from 'kysely';

/**
 * "Chunk" meant two things: a search passage (`material_chunks`) and a stretch of a long recording
 * (`speech_chunks`). A search passage is now a passage everywhere, table included; a recording's piece keeps
 * "chunk". The triggers of 0012 and 0015 go with the table (their functions read only transition tables), as
 * does its column `chunk_index`, which the public `chunkIndex` of a search result names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table material_chunks rename to search_passages`.execute(db);
  await sql`alter table search_passages rename constraint material_chunks_pk to search_passages_pk`.execute(db);
  await sql`alter index material_chunks_search_idx rename to search_passages_search_idx`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * Search passages in composed form (Unicode NFC), as the worker now writes them and as queries are read: a page
 * written with combining marks ("u" followed by U+0308 for "ü") was not found by the word as people type it. The
 * passages stored before are deleted and inserted again composed, so that the search triggers (insert and delete
 * only) take their old words out of the postings and counts and put the new ones in; passages already composed
 * are left alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create temporary table decomposed_passages on commit drop as
      select * from search_passages where text is not nfc normalized
  `.execute(db);
  await sql`
    delete from search_passages p using decomposed_passages d
    where p.material_id = d.material_id and p.chunk_index = d.chunk_index
  `.execute(db);
  await sql`
    insert into search_passages
      (material_id, chunk_index, organization_id, text, page, chapter, start_ms, end_ms, heading, slide, box)
    select material_id, chunk_index, organization_id, normalize(text, nfc), page, chapter, start_ms, end_ms,
           heading, slide, box
    from decomposed_passages
    order by material_id, chunk_index
  `.execute(db);
  await sql`drop table decomposed_passages`.execute(db);
}

/** Composed text is what the search expects; there is nothing to undo. */
export async function down(): Promise<void> {}

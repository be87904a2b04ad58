import type { Db } from './connection.ts';

/** Rows per INSERT: 7 parameters each stays far below Postgres's 65,535-parameter limit. */
const INSERT_BATCH = 500;

/** One passage of a material's text, where it sits: its page, chapter, or time in a recording. */
export interface PassageInput {
  text: string;
  page?: number;
  chapter?: number;
  startMs?: number;
  endMs?: number;
}

/** Replaces every passage of a material; run it in the transaction that publishes the new result. */
export async function replacePassages(
  db: Db,
  organizationId: string,
  materialId: string,
  passages: PassageInput[],
): Promise<void> {
  await deletePassages(db, materialId);
  for (let start = 0; start < passages.length; start += INSERT_BATCH) {
    const rows = passages.slice(start, start + INSERT_BATCH).map((passage, i) => ({
      material_id: materialId,
      chunk_index: start + i,
      organization_id: organizationId,
      text: passage.text,
      page: passage.page ?? null,
      chapter: passage.chapter ?? null,
      start_ms: passage.startMs ?? null,
      end_ms: passage.endMs ?? null,
    }));
    await db.insertInto('search_passages').values(rows).execute();
  }
}

export async function deletePassages(db: Db, materialId: string): Promise<void> {
  await db.deleteFrom('search_passages').where('material_id', '=', materialId).execute();
}

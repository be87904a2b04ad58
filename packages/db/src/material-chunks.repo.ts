import type { Db } from './connection.ts';

/** Rows per INSERT: 10 parameters each stays far below Postgres's 65,535-parameter limit. */
const INSERT_BATCH = 500;

export interface ChunkInput {
  text: string;
  /** The headings the passage stands under, outermost first. */
  heading?: string[];
  page?: number;
  slide?: number;
  /** `[x0, y0, x1, y1]` on a PDF page. */
  box?: number[];
  chapter?: number;
  startMs?: number;
  endMs?: number;
}

/** Replaces every chunk of a material; run it in the transaction that publishes the new result. */
export async function replaceChunks(
  db: Db,
  organizationId: string,
  materialId: string,
  chunks: ChunkInput[],
): Promise<void> {
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
      heading: chunk.heading ?? null,
      slide: chunk.slide ?? null,
      box: chunk.box ?? null,
    }));
    await db.insertInto('material_chunks').values(rows).execute();
  }
}

export async function deleteChunks(db: Db, materialId: string): Promise<void> {
  await db.deleteFrom('material_chunks').where('material_id', '=', materialId).execute();
}

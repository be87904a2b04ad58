import type { Db } from '@quire/db';
import type { Material } from '@quire/material';

/** One searchable passage of a material's text, with where it sits (headings, page, slide, chapter, time). */
export interface SearchPassage {
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

/** Rows per INSERT: 10 parameters each stays far below Postgres's 65,535-parameter limit. */
const INSERT_BATCH = 500;

/**
 * Makes `passages` the material's searchable passages, in the caller's transaction (the one that publishes
 * the result). Writing `search_passages` is what keeps the search index exact: statement triggers of
 * migrations 0012 and 0015 maintain, in that same transaction,
 * - at once, what belongs to this material alone: the postings (`search_postings`: each word's frequency in
 *   each passage, and the passage's length) and its totals (`search_documents`);
 * - at commit, what the whole organization shares: the vocabulary (`search_vocabulary`: each word with the
 *   number of passages holding it) and the totals BM25 ranks with (`search_stats`). Each statement appends
 *   its counts to `search_pending_vocabulary` / `search_pending_stats`, and a deferred trigger merges the
 *   transaction's counts in one statement sorted by word, so concurrent publishes of one organization never
 *   lock those rows in different orders, and hold them only until their commit.
 * Nothing else writes those tables.
 */
export async function replaceSearchPassages(
  trx: Db,
  material: Pick<Material, 'id' | 'organizationId'>,
  passages: SearchPassage[],
): Promise<void> {
  await dropSearchPassages(trx, material.id);
  for (let start = 0; start < passages.length; start += INSERT_BATCH) {
    const rows = passages.slice(start, start + INSERT_BATCH).map((passage, i) => ({
      material_id: material.id,
      chunk_index: start + i,
      organization_id: material.organizationId,
      text: passage.text,
      page: passage.page ?? null,
      chapter: passage.chapter ?? null,
      start_ms: passage.startMs ?? null,
      end_ms: passage.endMs ?? null,
      heading: passage.heading ?? null,
      slide: passage.slide ?? null,
      box: passage.box ?? null,
    }));
    await trx.insertInto('search_passages').values(rows).execute();
  }
}

/** Drops a material's passages; the same triggers take its words out of the postings, vocabulary and totals. */
export async function dropSearchPassages(trx: Db, materialId: string): Promise<void> {
  await trx.deleteFrom('search_passages').where('material_id', '=', materialId).execute();
}

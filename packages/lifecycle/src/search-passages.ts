import { deletePassages, replacePassages, type Db, type PassageInput } from '@quire/db';
import type { Material } from '@quire/material';

/** One searchable passage of a material's text, with where it sits (page, chapter, time). */
export type SearchPassage = PassageInput;

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
export async function replaceSearchPassages(trx: Db, material: Material, passages: SearchPassage[]): Promise<void> {
  await replacePassages(trx, material.organizationId, material.id, passages);
}

/** Drops a material's passages; the same triggers take its words out of the postings, vocabulary and totals. */
export async function dropSearchPassages(trx: Db, materialId: string): Promise<void> {
  await deletePassages(trx, materialId);
}

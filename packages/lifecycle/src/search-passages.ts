import { deleteChunks, replaceChunks, type ChunkInput, type Db } from '@quire/db';
import type { Material } from '@quire/material';

/** One searchable passage of a material's text, with where it sits (page, chapter, time). */
export type SearchPassage = ChunkInput;

/**
 * Makes `passages` the material's searchable passages, in the caller's transaction (the one that publishes
 * the result). Writing `material_chunks` is what keeps the search index exact: statement triggers of
 * migration 0012 maintain, in that same transaction,
 * - the postings (`search_postings`: each word's frequency in each passage, and the passage's length),
 * - the vocabulary (`search_vocabulary`: each word of the organization with the number of passages holding it),
 * - the per-material and per-organization totals BM25 ranks with (`search_documents`, `search_stats`).
 * Nothing else writes those tables.
 */
export async function replaceSearchPassages(trx: Db, material: Material, passages: SearchPassage[]): Promise<void> {
  await replaceChunks(trx, material.organizationId, material.id, passages);
}

/** Drops a material's passages; the same triggers take its words out of the postings, vocabulary and totals. */
export async function dropSearchPassages(trx: Db, materialId: string): Promise<void> {
  await deleteChunks(trx, materialId);
}

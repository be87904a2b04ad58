import {
  liveMaterialIds,
  searchPassages,
  termStatistics,
  type PassageHit,
  type PassageSearch,
  type QueryTerm,
  type WeightedTerm,
} from '@quire/db';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requireFolders } from './folders.service.ts';
import { highlightsOf, parseSearchQuery, type Highlight } from './search-query.ts';

export interface SearchInput {
  query: string;
  topK: number;
  passagesPerMaterial: number;
  materialIds?: string[];
  folderIds?: string[];
}

export type SearchHit = PassageHit & { matchedTerms: string[]; highlights: Highlight[] };

/**
 * A word in more than this share of the organization's passages, and in more than that many, is common (see
 * `WeightedTerm.generates`): below it, reading every posting costs little.
 */
const COMMON_TERM_SHARE = 0.005;
const COMMON_TERM_MIN_PASSAGES = 500;

/**
 * Two query words side by side in a passage add this many times their mean idf (one word further apart, half):
 * enough to decide between passages and materials that hold the same words, not to override how many they hold.
 */
const ADJACENCY_WEIGHT = 1;

/**
 * The raw score (BM25 of passage and material plus adjacency, unbounded) mapped into 0..1 as `raw / (raw + half)`,
 * where `half` is the sum of the query words' idf: the passage part of a passage of average length holding each
 * query word once. Strictly increasing, so the order is the raw order; it depends on the query, not on which other
 * passages were found, so a passage's score does not change with `topK` or the scope.
 */
export const relevanceScore = (raw: number, half: number) => (raw <= 0 || half <= 0 ? 0 : raw / (raw + half));

/** Lucene's BM25 idf: never negative, however common the word. */
const idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Query words found side by side count extra, by how rare they are. */
function adjacentPairs(terms: QueryTerm[], idfOf: Map<string, number>): PassageSearch['pairs'] {
  const pairs: PassageSearch['pairs'] = [];
  for (const first of terms) {
    for (const second of terms) {
      const distance = second.ord - first.ord;
      if (first.lexeme === second.lexeme || !idfOf.has(first.lexeme) || !idfOf.has(second.lexeme)) continue;
      // The next word of the query that is searched for: stop words between keep their positions.
      const nextOrd = Math.min(...terms.filter((t) => t.ord > first.ord && idfOf.has(t.lexeme)).map((t) => t.ord));
      if (distance > 0 && second.ord === nextOrd) {
        pairs.push({
          first: first.lexeme,
          second: second.lexeme,
          distance,
          weight: (ADJACENCY_WEIGHT * (idfOf.get(first.lexeme)! + idfOf.get(second.lexeme)!)) / 2,
        });
      }
    }
  }
  return pairs;
}

/**
 * Ranked passages of the organization's active materials (BM25 of passage and material, words side by side
 * counting extra, misspelled words corrected), each with the query words it matched and where they are.
 * Every id in the scope must be the organization's.
 */
export async function searchMaterials(ctx: ApiContext, organizationId: string, input: SearchInput) {
  const materialIds = input.materialIds?.length ? [...new Set(input.materialIds)] : undefined;
  const folderIds = input.folderIds?.length ? [...new Set(input.folderIds)] : undefined;
  if (materialIds && (await liveMaterialIds(ctx.db, organizationId, materialIds)).size !== materialIds.length)
    throw notFound();
  await requireFolders(ctx.db, organizationId, folderIds ?? []);
  const filtered = Boolean(materialIds || folderIds);

  // Passages are stored composed (NFC); a query typed with combining marks must match them.
  const parsed = parseSearchQuery(input.query.normalize('NFC'));
  const stats = await termStatistics(ctx.db, organizationId, parsed.words);
  const idfOf = new Map<string, number>();
  const terms: WeightedTerm[] = [];
  for (const t of stats.terms) {
    if (t.df === 0 || idfOf.has(t.lexeme)) continue;
    idfOf.set(t.lexeme, idf(t.df, stats.passages));
    terms.push({
      lexeme: t.lexeme,
      idf: idfOf.get(t.lexeme)!,
      generates: t.df <= Math.max(COMMON_TERM_MIN_PASSAGES, COMMON_TERM_SHARE * stats.passages),
    });
  }
  // Only common words: each of them finds candidates.
  if (!terms.some((t) => t.generates)) for (const t of terms) t.generates = true;
  const hits = await searchPassages(ctx.db, organizationId, {
    terms,
    pairs: adjacentPairs(stats.terms, idfOf),
    phrases: parsed.phrases,
    excluded: parsed.excluded,
    averagePassageLength: stats.totalLength / Math.max(1, stats.passages),
    averageMaterialLength: stats.totalLength / Math.max(1, stats.materials),
    limit: input.topK,
    passagesPerMaterial: input.passagesPerMaterial,
    materialIds,
    folderIds,
  });
  const wordsOf = (lexemes: string[]) => [
    ...new Set(stats.terms.filter((t) => lexemes.includes(t.lexeme)).map((t) => t.word)),
  ];
  const half = [...idfOf.values()].reduce((sum, value) => sum + value, 0);
  const results = hits.map((hit): SearchHit => ({
    ...hit,
    score: relevanceScore(hit.score, half),
    matchedTerms: wordsOf(hit.lexemes),
    highlights: highlightsOf(hit.text, hit.highlighted),
  }));
  return { hits: results, filtered };
}

import { sql } from 'kysely';
import type { Db } from '@quire/db';

export interface SearchRecount {
  /** True when the kept statistics equal a recount from the organization's passages. */
  exact: boolean;
  kept: { passages: number; totalLength: number; words: number };
  recounted: { passages: number; totalLength: number; words: number };
  /** Words whose kept passage count differs from the recount (at most 10 shown). */
  wrongWords: { lexeme: string; kept: number; recounted: number }[];
}

/**
 * Recounts an organization's search statistics from its passages (`search_passages`), the way the triggers
 * are meant to keep them, and compares: total passages and word positions, and every word's passage count.
 */
export async function recountSearchStatistics(db: Db, organizationId: string): Promise<SearchRecount> {
  const recountedTotals = await sql<{ passages: string; total_length: string | null }>`
    select count(*) as passages,
           sum((select coalesce(sum(cardinality(t.positions)), 0) from unnest(c.search_vector) t)) as total_length
    from search_passages c where c.organization_id = ${organizationId}`.execute(db);
  const keptTotals = await db
    .selectFrom('search_stats')
    .select(['passages', 'total_length'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const wrong = await sql<{ lexeme: string; kept: string | null; recounted: string | null }>`
    with recounted as (
      select t.lexeme, count(*) as passages
      from search_passages c cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
      where c.organization_id = ${organizationId}
      group by t.lexeme
    ), kept as (
      select lexeme, passages from search_vocabulary where organization_id = ${organizationId} and passages <> 0
    )
    select coalesce(k.lexeme, r.lexeme) as lexeme, k.passages as kept, r.passages as recounted
    from kept k full join recounted r on r.lexeme = k.lexeme
    where k.passages is distinct from r.passages
    order by 1`.execute(db);
  const words = await sql<{ kept: string; recounted: string }>`
    select (select count(*) from search_vocabulary where organization_id = ${organizationId} and passages <> 0) as kept,
           (select count(distinct t.lexeme) from search_passages c
              cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
            where c.organization_id = ${organizationId}) as recounted`.execute(db);
  const kept = {
    passages: Number(keptTotals?.passages ?? 0),
    totalLength: Number(keptTotals?.total_length ?? 0),
    words: Number(words.rows[0]!.kept),
  };
  const recounted = {
    passages: Number(recountedTotals.rows[0]!.passages),
    totalLength: Number(recountedTotals.rows[0]!.total_length ?? 0),
    words: Number(words.rows[0]!.recounted),
  };
  return {
    exact:
      wrong.rows.length === 0 && kept.passages === recounted.passages && kept.totalLength === recounted.totalLength,
    kept,
    recounted,
    wrongWords: wrong.rows
      .slice(0, 10)
      .map((w) => ({ lexeme: w.lexeme, kept: Number(w.kept ?? 0), recounted: Number(w.recounted ?? 0) })),
  };
}

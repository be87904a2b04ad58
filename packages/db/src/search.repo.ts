import { sql, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';

/** The text search configuration of `search_passages.search_vector` (migration 0006); queries must match it. */
const TEXT_SEARCH_CONFIG = 'english';
/** Okapi BM25's usual constants (Lucene's defaults). */
const K1 = 1.2;
const B = 0.75;
/**
 * The whole material's BM25 is added to each of its passages' at this weight: which material comes first is
 * decided mostly by the whole material (a passage rarely holds every word), which of its passages by the
 * passage. Measured with `npm run bench -- search` (1 and 3 ranked natural queries below plain BM25).
 */
const MATERIAL_WEIGHT = 10;
/** Passages ranked by BM25 before adjacency is weighed: enough that grouping still fills a page. */
const MIN_CANDIDATES = 200;
/** Passages of one material kept beyond those asked for, in case words side by side promote one of them. */
const SPARE_PASSAGES = 2;

/** Markers around highlighted words in `PassageHit.highlighted`: control characters extracted text does not use. */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

export interface QueryTerm {
  /** The word as the query has it. */
  word: string;
  /** Its position among the query's words. */
  ord: number;
  /** The stemmed word searched for, corrected to a word of the organization's passages when misspelled. */
  lexeme: string;
  /** Passages of the organization holding the lexeme. */
  df: number;
}

export interface TermStatistics {
  terms: QueryTerm[];
  passages: number;
  totalLength: number;
  materials: number;
}

/**
 * Stems the query's words as passages are stemmed and counts the passages holding each. A word that no
 * passage of the organization holds is taken for a misspelling of its most similar word (trigrams) that one
 * does, when there is one.
 */
export async function termStatistics(db: Db, organizationId: string, words: string[]): Promise<TermStatistics> {
  const config = sql.lit(TEXT_SEARCH_CONFIG);
  const { rows } = await sql<QueryTerm>`
    with words as (
      select w.word, w.ord::integer as ord, t.lexeme
      from unnest(${words}::text[]) with ordinality as w(word, ord)
      cross join lateral unnest(tsvector_to_array(to_tsvector(${config}::regconfig, w.word))) as t(lexeme)
    ), resolved as (
      select w.word, w.ord, coalesce(
        (select v.lexeme from search_vocabulary v
         where v.organization_id = ${organizationId} and v.lexeme = w.lexeme and v.passages > 0),
        (select v.lexeme from search_vocabulary v
         where v.organization_id = ${organizationId} and v.lexeme % w.lexeme and v.passages > 0
         order by similarity(v.lexeme, w.lexeme) desc, v.lexeme limit 1),
        w.lexeme) as lexeme
      from words w
    )
    select r.word, r.ord, r.lexeme,
           coalesce((select v.passages from search_vocabulary v where v.organization_id = ${organizationId} and v.lexeme = r.lexeme), 0)::integer as df
    from resolved r
    order by r.ord`.execute(db);
  const stats = await db
    .selectFrom('organizations as o')
    .leftJoin('search_stats as s', 's.organization_id', 'o.id')
    .leftJoin('material_counts as c', 'c.organization_id', 'o.id')
    .select(['s.passages', 's.total_length', 'c.live'])
    .where('o.id', '=', organizationId)
    .executeTakeFirst();
  return {
    terms: rows,
    passages: Number(stats?.passages ?? 0),
    totalLength: Number(stats?.total_length ?? 0),
    materials: Number(stats?.live ?? 0),
  };
}

export interface WeightedTerm {
  lexeme: string;
  /** Inverse document frequency among the organization's passages (also weighs it in whole materials). */
  idf: number;
  /**
   * Whether passages holding it are candidates. A common word (Elasticsearch's "common terms") only adds to
   * the score of passages a rarer word found: reading all of its postings would cost the most and change
   * the least.
   */
  generates: boolean;
}

export interface PassageSearch {
  /** Distinct lexemes with their idf; a passage matching any of them is a candidate. */
  terms: WeightedTerm[];
  /**
   * Consecutive query words as lexemes, `distance` positions apart in the query (stop words keep their
   * positions), and what finding them so in a passage adds; one position further adds half.
   */
  pairs: { first: string; second: string; distance: number; weight: number }[];
  /** Phrases every passage must hold, word for word. */
  phrases: string[];
  /** Words no passage may hold. */
  excluded: string[];
  averagePassageLength: number;
  averageMaterialLength: number;
  limit: number;
  passagesPerMaterial: number;
  materialIds?: string[];
  /** Folders whose materials are searched, each with all of its subfolders. */
  folderIds?: string[];
}

export interface PassageHit {
  material_id: string;
  material_name: string;
  content_type: string;
  chunk_index: number;
  text: string;
  page: number | null;
  chapter: number | null;
  start_ms: number | null;
  end_ms: number | null;
  heading: string[] | null;
  slide: number | null;
  box: number[] | null;
  score: number;
  /** The lexemes of `terms` the passage holds. */
  lexemes: string[];
  /** `text` with every matched word between `HIGHLIGHT_START` and `HIGHLIGHT_END`. */
  highlighted: string;
}

/** A lexeme as a tsquery literal, never parsed as query syntax or stemmed again. */
const lexemeQuery = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The best passages of the organization's active materials: BM25 of the passage plus BM25 of its whole
 * material (each word's occurrences summed over its passages), plus a bonus for query words found side by
 * side, at most `passagesPerMaterial` passages of one material.
 */
export async function searchPassages(db: Db, organizationId: string, q: PassageSearch): Promise<PassageHit[]> {
  if (q.terms.length === 0) return [];
  const config = sql.lit(TEXT_SEARCH_CONFIG);
  const scope = q.folderIds
    ? sql`scope (id) as (
        select id from folders where organization_id = ${organizationId} and id in (${sql.join(q.folderIds)})
        union
        select f.id from folders f join scope s on f.parent_folder_id = s.id where f.organization_id = ${organizationId}
      ),`
    : sql``;
  const inFolders = q.folderIds ? sql`and m.folder_id in (select id from scope)` : sql``;
  const inMaterials = q.materialIds ? sql`and m.id in (${sql.join(q.materialIds)})` : sql``;
  const conditions: RawBuilder<unknown>[] = [
    ...q.phrases.map((phrase) => sql`c.search_vector @@ phraseto_tsquery(${config}::regconfig, ${phrase})`),
    ...q.excluded.map((word) => sql`not (c.search_vector @@ plainto_tsquery(${config}::regconfig, ${word}))`),
  ];
  const filter = conditions.length
    ? sql`join search_passages c on c.material_id = p.material_id and c.chunk_index = p.chunk_index where ${sql.join(conditions, sql` and `)}`
    : sql``;
  const adjacency = q.pairs.length
    ? sql.join(
        q.pairs.map((pair) => {
          const [first, second] = [lexemeQuery(pair.first), lexemeQuery(pair.second)];
          return sql`case when c.search_vector @@ tsquery_phrase(${first}::tsquery, ${second}::tsquery, ${pair.distance}) then ${pair.weight}::float8
                          when c.search_vector @@ tsquery_phrase(${first}::tsquery, ${second}::tsquery, ${pair.distance + 1}) then ${pair.weight / 2}::float8
                          else 0 end`;
        }),
        sql` + `,
      )
    : sql`0`;
  const highlight = q.terms.map((t) => lexemeQuery(t.lexeme)).join(' | ');
  const normalized = (length: RawBuilder<unknown>, average: number) =>
    sql`(h.tf * ${K1 + 1}::float8 / (h.tf + ${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * ${length} / ${average}::float8)))`;

  const { rows } = await sql<PassageHit>`
    with recursive ${scope}
    terms as (
      select * from unnest(${q.terms.map((t) => t.lexeme)}::text[], ${q.terms.map((t) => t.idf)}::float8[],
                           ${q.terms.map((t) => t.generates)}::boolean[])
        as t(lexeme, idf, generates)
    ), found as (
      select p.material_id, p.chunk_index, p.tf, p.passage_length, t.lexeme, t.idf
      from terms t
      join search_postings p on p.organization_id = ${organizationId} and p.lexeme = t.lexeme
      where t.generates
    ), live as (
      -- One primary-key probe per material found: far fewer than the organization's materials.
      select m.id, m.name, m.content_type
      from (select distinct material_id from found) f
      cross join lateral (select * from materials m where m.id = f.material_id offset 0) m
      where m.organization_id = ${organizationId} and m.status = 'active' ${inMaterials} ${inFolders}
    ), keys as (
      select distinct f.material_id, f.chunk_index from found f join live l on l.id = f.material_id
    ), hits as (
      select f.* from found f join live l on l.id = f.material_id
      union all
      select p.material_id, p.chunk_index, p.tf, p.passage_length, t.lexeme, t.idf
      from terms t
      cross join keys k
      join search_postings p on p.organization_id = ${organizationId} and p.lexeme = t.lexeme
        and p.material_id = k.material_id and p.chunk_index = k.chunk_index
      where not t.generates
    ), passages as (
      select h.material_id, h.chunk_index, sum(h.idf * ${normalized(sql`h.passage_length`, q.averagePassageLength)}) as bm25,
             array_agg(h.lexeme) as lexemes
      from hits h
      group by h.material_id, h.chunk_index
    ), whole as (
      select h.material_id, sum(h.idf * ${normalized(sql`d.length`, q.averageMaterialLength)}) as bm25
      from (
        select material_id, lexeme, min(idf) as idf, sum(tf) as tf from hits group by material_id, lexeme
      ) h
      join search_documents d on d.material_id = h.material_id
      group by h.material_id
    ), candidates as (
      -- A few passages of each material at most, so one long material cannot crowd the others out.
      select * from (
        select p.material_id, p.chunk_index, p.lexemes, p.bm25 + ${MATERIAL_WEIGHT}::float8 * w.bm25 as score,
               row_number() over (partition by p.material_id order by p.bm25 desc, p.chunk_index) as nth
        from passages p join whole w on w.material_id = p.material_id
        ${filter}
      ) s
      where s.nth <= ${q.passagesPerMaterial + SPARE_PASSAGES}
      order by s.score desc
      limit ${Math.max(MIN_CANDIDATES, q.limit * (q.passagesPerMaterial + SPARE_PASSAGES))}
    ), ranked as (
      select k.material_id, k.chunk_index, k.lexemes, k.score + (${adjacency}) as score,
             c.text, c.page, c.chapter, c.start_ms, c.end_ms, c.heading, c.slide, c.box
      from candidates k join search_passages c on c.material_id = k.material_id and c.chunk_index = k.chunk_index
    ), grouped as (
      select r.*, row_number() over (partition by r.material_id order by r.score desc, r.chunk_index) as nth from ranked r
    ), page as (
      select g.* from grouped g where g.nth <= ${q.passagesPerMaterial}
      order by g.score desc, g.material_id, g.chunk_index
      limit ${q.limit}
    )
    select g.material_id, l.name as material_name, l.content_type, g.chunk_index, g.text, g.page, g.chapter,
           g.start_ms, g.end_ms, g.heading, g.slide, g.box, g.score, g.lexemes,
           ts_headline(${config}::regconfig, g.text, ${highlight}::tsquery,
                       ${`HighlightAll=true, StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}`}) as highlighted
    from page g join live l on l.id = g.material_id
    order by g.score desc, g.material_id, g.chunk_index`.execute(db);
  return rows;
}

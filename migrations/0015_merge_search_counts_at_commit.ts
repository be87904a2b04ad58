import { sql, type Kysely } from 'kysely';

/**
 * Migration 0012's triggers added each statement's words to the organization's vocabulary and totals as the
 * passages were written. A publish writes its passages in several statements (500 rows each), each taking its
 * words in order but not in one order across statements. Two publishes of one organization did not deadlock
 * on those words only because every statement first updated the organization's totals row: a publish held it
 * from its first passage to its commit, so publishes of one organization ran one after the other.
 *
 * Now each statement only appends its counts to a per-transaction table, and one deferred trigger merges a
 * transaction's counts at commit, in one statement sorted by word: one lock order for everybody, held only
 * from the merge to the commit. Words whose count does not change (most of a reprocessed text) are not
 * written at all. Postings and per-material lengths belong to one material and stay immediate.
 *
 * The pending tables are unlogged: their rows never outlive the transaction that wrote them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unlogged table search_pending_transactions (xact xid8 primary key)`.execute(db);
  await sql`
    create unlogged table search_pending_vocabulary (
      xact xid8 not null,
      organization_id text not null,
      lexeme text not null,
      passages bigint not null
    )`.execute(db);
  await sql`create index search_pending_vocabulary_xact_idx on search_pending_vocabulary (xact)`.execute(db);
  await sql`
    create unlogged table search_pending_stats (
      xact xid8 not null,
      organization_id text not null,
      passages bigint not null,
      total_length bigint not null
    )`.execute(db);
  await sql`create index search_pending_stats_xact_idx on search_pending_stats (xact)`.execute(db);

  const lengths = (rows: string) => `
    select c.organization_id, c.material_id, c.chunk_index,
           coalesce((select sum(cardinality(t.positions)) from unnest(c.search_vector) t), 0)::integer as len
    from ${rows} c`;

  // `sign` is 1 for passages written, -1 for passages removed.
  const appendCounts = (rows: string, sign: string) => `
      insert into search_pending_stats (xact, organization_id, passages, total_length)
      select pg_current_xact_id(), organization_id, ${sign} * count(*), ${sign} * sum(len)
      from (${lengths(rows)}) l group by organization_id;

      insert into search_pending_vocabulary (xact, organization_id, lexeme, passages)
      select pg_current_xact_id(), c.organization_id, t.lexeme, ${sign} * count(*)
      from ${rows} c cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
      group by c.organization_id, t.lexeme;

      insert into search_pending_transactions (xact) values (pg_current_xact_id()) on conflict do nothing;`;

  await sql
    .raw(
      `
    create or replace function search_index_on_insert() returns trigger language plpgsql as $$
    begin
      insert into search_documents as d (material_id, organization_id, length, passages)
      select material_id, min(organization_id), sum(len), count(*) from (${lengths('came')}) l group by material_id order by material_id
      on conflict (material_id) do update
        set length = d.length + excluded.length, passages = d.passages + excluded.passages;

      insert into search_postings (organization_id, lexeme, material_id, chunk_index, tf, passage_length)
      select l.organization_id, t.lexeme, l.material_id, l.chunk_index, cardinality(t.positions), l.len
      from (${lengths('came')}) l
      join came c on c.material_id = l.material_id and c.chunk_index = l.chunk_index
      cross join lateral unnest(c.search_vector) t;
      ${appendCounts('came', '1')}
      return null;
    end $$`,
    )
    .execute(db);

  await sql
    .raw(
      `
    create or replace function search_index_on_delete() returns trigger language plpgsql as $$
    begin
      update search_documents d set length = d.length - g.total, passages = d.passages - g.passages
      from (select material_id, count(*) as passages, sum(len) as total from (${lengths('went')}) l group by material_id) g
      where d.material_id = g.material_id;
      delete from search_documents d where d.passages <= 0 and d.material_id in (select material_id from went);

      delete from search_postings p
      using went c cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
      where p.organization_id = c.organization_id and p.lexeme = t.lexeme
        and p.material_id = c.material_id and p.chunk_index = c.chunk_index;
      ${appendCounts('went', '-1')}
      return null;
    end $$`,
    )
    .execute(db);

  // As before, a word stays in the vocabulary once no passage holds it (`passages` 0): corrections skip it.
  await sql`
    create function search_merge_pending_counts() returns trigger language plpgsql as $$
    begin
      insert into search_stats as s (organization_id, passages, total_length)
      select organization_id, sum(passages), sum(total_length) from search_pending_stats
      where xact = new.xact group by organization_id
      having sum(passages) <> 0 or sum(total_length) <> 0
      order by organization_id
      on conflict (organization_id) do update
        set passages = s.passages + excluded.passages, total_length = s.total_length + excluded.total_length;

      insert into search_vocabulary as v (organization_id, lexeme, passages)
      select organization_id, lexeme, sum(passages) from search_pending_vocabulary
      where xact = new.xact group by organization_id, lexeme
      having sum(passages) <> 0
      order by organization_id, lexeme
      on conflict (organization_id, lexeme) do update set passages = v.passages + excluded.passages;

      delete from search_pending_stats where xact = new.xact;
      delete from search_pending_vocabulary where xact = new.xact;
      delete from search_pending_transactions where xact = new.xact;
      return null;
    end $$`.execute(db);

  await sql`
    create constraint trigger search_merge_pending_counts after insert on search_pending_transactions
    deferrable initially deferred for each row execute function search_merge_pending_counts()`.execute(db);
}

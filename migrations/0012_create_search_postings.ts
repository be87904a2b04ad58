import { sql, type Kysely } from 'kysely';

/**
 * What BM25 ranking needs and a tsvector cannot answer quickly: how often each word occurs in each passage
 * (postings), how long passages and whole materials are, and the organization's vocabulary with the number of
 * passages holding each word (its document frequency, read per query word; counting postings of a common word
 * at query time cost tens of milliseconds at 100,000 materials), also used to correct misspelled query words.
 *
 * Statement triggers on `material_chunks` keep all of it in the transaction that writes the passages, so it
 * is exact whenever the passages are. Vocabulary rows are written in one order, so two inserts never deadlock;
 * two reprocessings of one organization at once can (each first releases its old words), and Postgres then
 * aborts one, whose job BullMQ retries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table search_postings (
      organization_id text not null,
      lexeme text not null,
      material_id text not null,
      chunk_index integer not null,
      tf integer not null,
      passage_length integer not null,
      constraint search_postings_pk primary key (organization_id, lexeme, material_id, chunk_index) include (tf, passage_length)
    )`.execute(db);
  await sql`
    create table search_documents (
      material_id text primary key,
      organization_id text not null,
      length bigint not null,
      passages integer not null
    )`.execute(db);
  await sql`
    create table search_stats (
      organization_id text primary key references organizations (id),
      passages bigint not null,
      total_length bigint not null
    )`.execute(db);
  await sql`
    create table search_vocabulary (
      organization_id text not null,
      lexeme text not null,
      passages bigint not null,
      constraint search_vocabulary_pk primary key (organization_id, lexeme)
    )`.execute(db);
  // pg_trgm and btree_gin come from migration 0008.
  await sql`create index search_vocabulary_trgm_idx on search_vocabulary using gin (organization_id, lexeme gin_trgm_ops)`.execute(
    db,
  );

  // A passage's length is its number of word positions, the `tf` of a word the number of its positions.
  const lengths = (rows: string) => `
    select c.organization_id, c.material_id, c.chunk_index,
           coalesce((select sum(cardinality(t.positions)) from unnest(c.search_vector) t), 0)::integer as len
    from ${rows} c`;

  await sql
    .raw(
      `
    create function search_index_on_insert() returns trigger language plpgsql as $$
    begin
      insert into search_stats as s (organization_id, passages, total_length)
      select organization_id, count(*), sum(len) from (${lengths('came')}) l group by organization_id order by organization_id
      on conflict (organization_id) do update
        set passages = s.passages + excluded.passages, total_length = s.total_length + excluded.total_length;

      insert into search_documents as d (material_id, organization_id, length, passages)
      select material_id, min(organization_id), sum(len), count(*) from (${lengths('came')}) l group by material_id order by material_id
      on conflict (material_id) do update
        set length = d.length + excluded.length, passages = d.passages + excluded.passages;

      insert into search_postings (organization_id, lexeme, material_id, chunk_index, tf, passage_length)
      select l.organization_id, t.lexeme, l.material_id, l.chunk_index, cardinality(t.positions), l.len
      from (${lengths('came')}) l
      join came c on c.material_id = l.material_id and c.chunk_index = l.chunk_index
      cross join lateral unnest(c.search_vector) t;

      insert into search_vocabulary as v (organization_id, lexeme, passages)
      select c.organization_id, t.lexeme, count(*) from came c cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
      group by 1, 2
      order by 1, 2
      on conflict (organization_id, lexeme) do update set passages = v.passages + excluded.passages;
      return null;
    end $$`,
    )
    .execute(db);

  // A word stays in the vocabulary when no passage holds it any more (`passages` 0): corrections skip it.
  await sql
    .raw(
      `
    create function search_index_on_delete() returns trigger language plpgsql as $$
    begin
      update search_stats s set passages = s.passages - g.passages, total_length = s.total_length - g.total
      from (select organization_id, count(*) as passages, sum(len) as total from (${lengths('went')}) l group by organization_id) g
      where s.organization_id = g.organization_id;

      update search_documents d set length = d.length - g.total, passages = d.passages - g.passages
      from (select material_id, count(*) as passages, sum(len) as total from (${lengths('went')}) l group by material_id) g
      where d.material_id = g.material_id;
      delete from search_documents d where d.passages <= 0 and d.material_id in (select material_id from went);

      update search_vocabulary v set passages = v.passages - g.passages
      from (
        select c.organization_id, t.lexeme, count(*) as passages
        from went c cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
        group by 1, 2
      ) g
      where v.organization_id = g.organization_id and v.lexeme = g.lexeme;

      delete from search_postings p
      using went c cross join lateral unnest(tsvector_to_array(c.search_vector)) t(lexeme)
      where p.organization_id = c.organization_id and p.lexeme = t.lexeme
        and p.material_id = c.material_id and p.chunk_index = c.chunk_index;
      return null;
    end $$`,
    )
    .execute(db);

  await sql`
    create trigger search_index_insert after insert on material_chunks
    referencing new table as came for each statement execute function search_index_on_insert()`.execute(db);
  await sql`
    create trigger search_index_delete after delete on material_chunks
    referencing old table as went for each statement execute function search_index_on_delete()`.execute(db);

  // Passages written before this migration go through the triggers once, by being written again.
  await sql`create temporary table chunks_before on commit drop as select * from material_chunks`.execute(db);
  await sql`delete from material_chunks`.execute(db);
  await sql`
    insert into material_chunks (material_id, chunk_index, organization_id, text, page, chapter, start_ms, end_ms)
    select material_id, chunk_index, organization_id, text, page, chapter, start_ms, end_ms from chunks_before`.execute(
    db,
  );
}

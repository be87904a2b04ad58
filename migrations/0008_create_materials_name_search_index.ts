import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The list's `search` is a case-insensitive substring of the name (ILIKE '%...%'), which no btree serves:
  // without this, counting an organization's matches read the whole table. Trigrams find the candidates and
  // btree_gin lets the organization be part of the same index, so other tenants' names are never visited.
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`
    create index materials_name_search_idx on materials
    using gin (organization_id, name gin_trgm_ops)
    where status <> 'deleted'`.execute(db);
}

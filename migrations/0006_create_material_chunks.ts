import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Passages of a material's extracted text, written by the worker in the transaction that makes the
  // material active, so search never sees a half-replaced set. The text search configuration is fixed here
  // (a generated column needs an immutable expression); queries must use the same one.
  await db.schema
    .createTable('material_chunks')
    .addColumn('material_id', 'text', (c) => c.notNull().references('materials.id'))
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('page', 'integer')
    .addColumn('chapter', 'integer')
    .addColumn('start_ms', 'bigint')
    .addColumn('end_ms', 'bigint')
    .addColumn('search_vector', sql`tsvector`, (c) =>
      c
        .notNull()
        .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, text)`)
        .stored(),
    )
    .addPrimaryKeyConstraint('material_chunks_pk', ['material_id', 'chunk_index'])
    .execute();
  await db.schema
    .createIndex('material_chunks_search_idx')
    .on('material_chunks')
    .using('gin')
    .column('search_vector')
    .execute();
}

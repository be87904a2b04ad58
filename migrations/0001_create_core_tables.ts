import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan_valid_from', 'timestamptz')
    .addColumn('plan_valid_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('groups_organization_idx').on('groups').column('organization_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('group_id', 'text', (c) => c.references('groups.id'))
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('materials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('folder_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending_upload', 'processing', 'active', 'error', 'deleted')`),
    )
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('references', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('extract_images', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('storage_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('derived_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('processing_started_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('materials_org_listing_idx')
    .on('materials')
    .columns(['organization_id', 'created_at desc', 'id desc'])
    .where(sql.ref('status'), '<>', 'deleted')
    .execute();
  await db.schema
    .createIndex('materials_processing_idx')
    .on('materials')
    .column('processing_started_at')
    .where(sql.ref('status'), '=', 'processing')
    .execute();

  // Every object a material holds in storage, so DELETE can remove all of them and usage can count them.
  await db.schema
    .createTable('material_objects')
    .addColumn('material_id', 'text', (c) => c.notNull().references('materials.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('original', 'derived')`))
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('material_objects_pk', ['material_id', 'key'])
    .execute();
}

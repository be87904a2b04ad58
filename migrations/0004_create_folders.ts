import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Folder ids are unique per organization, not globally: folders made from the free-text labels of earlier
  // versions keep the label as their id (0005), and two organizations may have used the same label.
  await db.schema
    .createTable('folders')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_folder_id', 'text')
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('folders_pk', ['organization_id', 'id'])
    // Composite, so a parent is always of the same organization; a NULL parent (a root folder) is not checked.
    .addForeignKeyConstraint('folders_parent_fk', ['organization_id', 'parent_folder_id'], 'folders', [
      'organization_id',
      'id',
    ])
    .addCheckConstraint('folders_not_own_parent', sql`parent_folder_id <> id`)
    .execute();
  await db.schema
    .createIndex('folders_parent_idx')
    .on('folders')
    .columns(['organization_id', 'parent_folder_id'])
    .execute();
}

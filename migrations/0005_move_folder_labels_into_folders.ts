import { sql, type Kysely } from 'kysely';

/**
 * Earlier versions stored `materials.folder_id` as a free-text label. Every distinct (organization, label)
 * of a live material becomes a folder whose id IS the label, named after it: clients keep using the
 * folderIds they stored, and no material changes folder. Generating new ids instead would have needed a
 * rewrite of every material and silently broken every client's stored folderIds.
 * Deleted materials are invisible and final, so their labels make no folder; a label used only by deleted
 * materials is cleared rather than resurrected as an empty folder.
 * From here on the composite foreign key makes a folderId name a folder of the material's organization.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into folders (organization_id, id, name, created_at, updated_at)
    select organization_id, folder_id, folder_id, min(created_at), now()
    from materials
    where folder_id is not null and status <> 'deleted'
    group by organization_id, folder_id
  `.execute(db);
  await sql`
    update materials m set folder_id = null
    where m.folder_id is not null
      and not exists (select 1 from folders f where f.organization_id = m.organization_id and f.id = m.folder_id)
  `.execute(db);
  await sql`
    alter table materials add constraint materials_folder_fk
      foreign key (organization_id, folder_id) references folders (organization_id, id)
  `.execute(db);
  await db.schema
    .createIndex('materials_folder_idx')
    .on('materials')
    .columns(['organization_id', 'folder_id'])
    .where(sql.ref('status'), '<>', 'deleted')
    .execute();
}

import type { Db } from '@quire/db';
import { materialFromRow, referencesColumn, type Material, type Reference } from '@quire/material';

/*
 * Edits of a live material that leave its status as it is: its references, its folder, its name. They write
 * the materials table, so they live here with the other writes.
 */

export async function replaceReferences(
  db: Db,
  organizationId: string,
  id: string,
  references: Reference[],
): Promise<Material | undefined> {
  const row = await db
    .updateTable('materials')
    .set({ references: referencesColumn(references), updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('status', '<>', 'deleted')
    .returningAll()
    .executeTakeFirst();
  return row && materialFromRow(row);
}

/** Puts live materials into `folderId` (null: no folder); returns the ids it moved. */
export async function moveMaterials(
  db: Db,
  organizationId: string,
  ids: string[],
  folderId: string | null,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('materials')
    .set({ folder_id: folderId, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('status', '<>', 'deleted')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function renameMaterial(
  db: Db,
  organizationId: string,
  id: string,
  name: string,
): Promise<Material | undefined> {
  const row = await db
    .updateTable('materials')
    .set({ name, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('status', '<>', 'deleted')
    .returningAll()
    .executeTakeFirst();
  return row && materialFromRow(row);
}

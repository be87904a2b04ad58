import type { Db } from './connection.ts';

export async function recordObject(
  db: Db,
  materialId: string,
  key: string,
  kind: 'original' | 'derived',
  bytes: number,
): Promise<void> {
  await db
    .insertInto('material_objects')
    .values({ material_id: materialId, key, kind, bytes })
    .onConflict((oc) => oc.columns(['material_id', 'key']).doUpdateSet({ bytes, kind }))
    .execute();
}

export async function listObjects(db: Db, materialId: string, kind?: 'original' | 'derived') {
  let q = db.selectFrom('material_objects').select(['key', 'kind', 'bytes']).where('material_id', '=', materialId);
  if (kind) q = q.where('kind', '=', kind);
  return q.execute();
}

export async function forgetObjects(db: Db, materialId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('material_objects').where('material_id', '=', materialId).where('key', 'in', keys).execute();
}

import type { Db } from './connection.ts';

export async function listObjects(db: Db, materialId: string, kind?: 'original' | 'derived') {
  let q = db.selectFrom('material_objects').select(['key', 'kind', 'bytes']).where('material_id', '=', materialId);
  if (kind) q = q.where('kind', '=', kind);
  return q.execute();
}

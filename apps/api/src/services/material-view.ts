import { toMaterialView, type Material, type MaterialView } from '@quire/material';
import type { ObjectStore } from '@quire/storage';

/** Renders materials for one response: time-limited URLs are minted now, valid for `urlTtlSeconds`. */
export function materialViewer(
  store: ObjectStore,
  urlTtlSeconds: number,
): (material: Material) => Promise<MaterialView> {
  const sign = (key: string, filename?: string) => store.presignGet(key, urlTtlSeconds, filename ? { filename } : {});
  return (material) => toMaterialView(material, sign);
}

/** A page of materials on the wire, as the list endpoints answer it. */
export async function toMaterialPage(
  page: { rows: Material[]; totalCount: number; page: number; totalPages: number },
  view: (m: Material) => Promise<MaterialView>,
) {
  return {
    materials: await Promise.all(page.rows.map(view)),
    totalCount: page.totalCount,
    page: page.page,
    totalPages: page.totalPages,
  };
}

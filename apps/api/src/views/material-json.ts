import type { Material, MaterialView, SignUrl } from '@quire/material';
import type { MaterialVersion } from '@quire/db';
import { LRUCache } from 'lru-cache';

export type VersionedMaterial = { material: Material; version: string };

/**
 * Materials as their JSON on the wire, rendered once per row version (see `listMaterialVersions`) and shape (a
 * list item with its `include`s, or the whole material), so a page of materials nobody changed costs one narrow
 * query instead of reading, parsing, signing and serializing every row again. An entry is exact for as long as
 * its row version is current; it also expires after `ttlMs`, which the signed URLs inside it outlive.
 */
export class MaterialJson {
  private readonly kept: LRUCache<string, string> | undefined;

  /** Signs the URLs of what is rendered here, valid long enough for the entry's whole life (see `materialJsonFor`). */
  readonly sign: SignUrl;

  constructor(options: { maxBytes: number; ttlMs: number; sign: SignUrl }) {
    this.sign = options.sign;
    this.kept =
      options.maxBytes > 0 && options.ttlMs > 0
        ? new LRUCache({
            maxSize: options.maxBytes,
            // UTF-16 in memory: two bytes a character.
            sizeCalculation: (json, key) => 2 * (json.length + key.length),
            ttl: options.ttlMs,
          })
        : undefined;
  }

  /**
   * The JSON of each of `rows`, in their order: kept ones as they are, the others read by `read` and rendered by
   * `render`. A row that `read` no longer finds (deleted since) is left out.
   */
  async of(
    rows: MaterialVersion[],
    shape: string,
    read: (ids: string[]) => Promise<VersionedMaterial[]>,
    render: (material: Material) => Promise<MaterialView>,
  ): Promise<string[]> {
    const keyOf = (row: MaterialVersion) => `${row.id}\n${row.version}\n${shape}`;
    const json = new Map<string, string>();
    for (const row of rows) {
      const kept = this.kept?.get(keyOf(row));
      if (kept !== undefined) json.set(row.id, kept);
    }
    const missing = rows.filter((row) => !json.has(row.id)).map((row) => row.id);
    for (const { material, version } of await read(missing)) {
      const text = JSON.stringify(await render(material));
      json.set(material.id, text);
      // Kept under the version just read, which may be newer than the one listed: both are exact for it.
      this.kept?.set(keyOf({ id: material.id, version }), text);
    }
    return rows.flatMap((row) => json.get(row.id) ?? []);
  }
}

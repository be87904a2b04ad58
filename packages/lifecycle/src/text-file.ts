import { storageKeys, type Material } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { recordObject } from './material-writes.ts';

/**
 * A text material keeps its text in its row; a download URL needs it as a file. Written the first time it is asked
 * for (the text of a text material never changes) and recorded as the material's first, so deleting the material
 * removes it. Returns its key.
 */
export async function keepTextFile(deps: Pick<LifecycleDeps, 'db' | 'store'>, material: Material): Promise<string> {
  if (material.source.kind !== 'text') throw new Error(`material ${material.id} is not a text material`);
  const key = storageKeys.text(material.organizationId, material.id);
  const body = Buffer.from(material.source.text, 'utf8');
  if ((await deps.store.stat(key))?.size !== body.length) {
    await recordObject(deps.db, material.id, key, 'original', body.length);
    await deps.store.put(key, body, { contentType: 'text/plain; charset=utf-8' });
  }
  return key;
}

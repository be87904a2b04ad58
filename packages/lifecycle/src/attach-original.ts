import type { Readable } from 'node:stream';
import type { ContentType } from '@quire/extract';
import { storageKeys, type Material, type MaterialSource } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { attachOriginalRow, recordObject } from './material-writes.ts';

/** Bytes fetched for a URL material, their type decided from the bytes. */
export interface FetchedOriginal {
  body: Readable;
  filename: string;
  mimeType: string;
  contentType: ContentType;
}

/** Keeps a URL material's fetched bytes as its original: stored, owned by the material, named in its source. */
export async function attachOriginal(
  deps: Pick<LifecycleDeps, 'db' | 'store'>,
  material: Material,
  source: Extract<MaterialSource, { kind: 'url' }>,
  fetched: FetchedOriginal,
): Promise<void> {
  const key = storageKeys.original(material.organizationId, material.id);
  const { size } = await deps.store.put(key, fetched.body, { contentType: fetched.mimeType });
  await recordObject(deps.db, material.id, key, 'original', size);
  await attachOriginalRow(deps.db, material.id, {
    contentType: fetched.contentType,
    source: {
      ...source,
      fetched: { s3Key: key, filename: fetched.filename, fileSize: size, mimeType: fetched.mimeType },
    },
    storageBytes: size,
  });
}

import { completePendingUpload, recordObject } from '@quire/db';
import type { ContentType } from '@quire/extract';
import type { Material, StoredFile } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { enqueueOrWithdraw } from './enqueue.ts';

/** The object found at a `pending_upload` material's upload URL, its type sniffed from its bytes. */
export interface ArrivedUpload {
  size: number;
  etag?: string | undefined;
  mimeType: string;
  contentType: ContentType;
}

/**
 * Moves a `pending_upload` material to `processing` once its bytes are in storage, makes it own them, and
 * queues its job. Undefined when another request completed it first.
 */
export async function completeUpload(
  deps: LifecycleDeps,
  material: Material,
  file: StoredFile,
  upload: ArrivedUpload,
): Promise<Material | undefined> {
  const completed = await completePendingUpload(deps.db, material.organizationId, material.id, {
    contentType: upload.contentType,
    // Pinned: an S3 upload URL accepts PUTs until it expires, so processing and downloads check they see this object.
    source: {
      kind: 'file',
      file: {
        ...file,
        fileSize: upload.size,
        mimeType: upload.mimeType,
        ...(upload.etag ? { etag: upload.etag } : {}),
      },
    },
    storageBytes: upload.size,
  });
  if (!completed) return undefined;
  await recordObject(deps.db, material.id, file.s3Key, 'original', upload.size);
  await enqueueOrWithdraw(deps, completed);
  return completed;
}

import type { ContentType } from '@quire/extract';
import type { Material, StoredFile } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { enqueueOrWithdraw } from './enqueue.ts';
import { recordObject, transitionMaterial } from './material-writes.ts';

/** The object found at a `pending_upload` material's upload URL, its type sniffed from its bytes. */
export interface ArrivedUpload {
  size: number;
  etag?: string | undefined;
  mimeType: string;
  contentType: ContentType;
}

export type CompleteOutcome =
  | { status: 'completed'; material: Material }
  /** Not awaiting its bytes (already completed, by this request's twin or earlier): nothing was written. */
  | { status: 'not-pending'; material: Material }
  /** Another request completed it between the read and this move. */
  | { status: 'changed' };

/**
 * Moves a `pending_upload` material to `processing` once its bytes are in storage and makes it own them, in one
 * transaction through the same guarded move as every other, then queues its job.
 */
export async function completeUpload(
  deps: LifecycleDeps,
  material: Material,
  file: StoredFile,
  upload: ArrivedUpload,
): Promise<CompleteOutcome> {
  if (material.status !== 'pending_upload') return { status: 'not-pending', material };
  const completed = await deps.db.transaction().execute(async (trx) => {
    const moved = await transitionMaterial(trx, material.id, ['pending_upload'], 'processing', {
      organizationId: material.organizationId,
      upload: {
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
      },
    });
    if (moved) await recordObject(trx, material.id, file.s3Key, 'original', upload.size);
    return moved;
  });
  if (!completed) return { status: 'changed' };
  await enqueueOrWithdraw(deps, completed);
  return { status: 'completed', material: completed };
}

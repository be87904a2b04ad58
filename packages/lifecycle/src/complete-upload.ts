import { claimContradicts, sniff, SNIFF_BYTES } from '@quire/extract';
import type { Material, StoredFile } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { enqueueOrWithdraw } from './enqueue.ts';
import { recordObject, transitionMaterial } from './material-writes.ts';

/** Why the object at a material's upload URL does not complete it: the caller answers the client. */
export type CompleteRefusal =
  | { reason: 'not-uploaded' }
  /** Each of the others removed the object: a new PUT to the URL may replace it. */
  | { reason: 'too-large'; maxBytes: number }
  | { reason: 'empty' }
  | { reason: 'unsupported-type'; message: string };

export type CompleteOutcome =
  | { status: 'completed'; material: Material }
  /** Not awaiting its bytes (already completed, by this request's twin or earlier): nothing was written. */
  | { status: 'not-pending'; material: Material }
  /** Another request completed it between the read and this move. */
  | { status: 'changed' }
  | ({ status: 'refused' } & CompleteRefusal);

/**
 * Moves a `pending_upload` material to `processing` once its bytes are in storage and pass the preconditions
 * (uploaded, within the size limit, not empty, a type quire reads that the announced one does not
 * contradict), makes it own them, in one transaction through the same guarded move as every other, then
 * queues its job.
 */
export async function completeUpload(
  deps: LifecycleDeps,
  material: Material,
  file: StoredFile,
  preconditions: { maxBytes: number },
): Promise<CompleteOutcome> {
  if (material.status !== 'pending_upload') return { status: 'not-pending', material };
  const object = await deps.store.stat(file.s3Key);
  if (!object) return { status: 'refused', reason: 'not-uploaded' };
  // A refused file is removed before the refusal is answered: the material stays `pending_upload`, so its upload
  // URL takes one more PUT until it expires, and the client retries with the right file, not a new slot.
  const refuse = async (refusal: CompleteOutcome & { status: 'refused' }) => {
    await deps.store.remove([file.s3Key]);
    return refusal;
  };
  if (object.size > preconditions.maxBytes) {
    return refuse({ status: 'refused', reason: 'too-large', maxBytes: preconditions.maxBytes });
  }
  if (object.size === 0) return refuse({ status: 'refused', reason: 'empty' });
  const sniffed = await sniff(await deps.store.head(file.s3Key, SNIFF_BYTES));
  if (!sniffed.supported) return refuse({ status: 'refused', reason: 'unsupported-type', message: sniffed.reason });
  if (claimContradicts(file.mimeType, sniffed.contentType)) {
    const message = `The file was announced as ${file.mimeType} but its bytes are ${sniffed.mimeType}`;
    return refuse({ status: 'refused', reason: 'unsupported-type', message });
  }
  const upload = { size: object.size, etag: object.etag, mimeType: sniffed.mimeType, contentType: sniffed.contentType };
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

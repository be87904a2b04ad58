import { findMaterial } from '@quire/db';
import { originalOf } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';

/**
 * What an upload URL for `key` may still do. Upload URLs are minted for the original of a `pending_upload`
 * material only: once the material owns its file the URL is used up, and a deleted material's is gone.
 */
export async function uploadUrlState(deps: Pick<LifecycleDeps, 'db'>, key: string): Promise<'open' | 'used' | 'gone'> {
  const [organizationId, materialId] = key.split('/');
  const material = organizationId && materialId ? await findMaterial(deps.db, organizationId, materialId) : undefined;
  if (!material || originalOf(material.source)?.s3Key !== key) return 'gone';
  return material.status === 'pending_upload' ? 'open' : 'used';
}

/**
 * After a body was written to an upload URL's key: it stays if its material can still own it. Removed when
 * the material was deleted while the body arrived (`gone`), or when the client never heard the answer
 * (`unheard`: the URL must take its body again), unless a completion has meanwhile made the material own it.
 */
export async function settleUploadedBody(
  deps: Pick<LifecycleDeps, 'db' | 'store'>,
  key: string,
  /** Asked once the material is known to be live: the connection may close meanwhile. */
  clientHears: () => boolean,
): Promise<'kept' | 'gone' | 'unheard'> {
  if ((await uploadUrlState(deps, key)) === 'gone') {
    await deps.store.remove([key]);
    return 'gone';
  }
  if (!clientHears()) {
    if ((await uploadUrlState(deps, key)) === 'open') await deps.store.remove([key]);
    return 'unheard';
  }
  return 'kept';
}

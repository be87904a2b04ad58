import type { ObjectStore } from '@quire/storage';

/**
 * What `upload/complete` refuses (an empty file, a type quire cannot read, bytes that contradict the claimed type) is
 * removed before the refusal is answered: the material stays `pending_upload`, so its upload URL takes one more PUT
 * until it expires, and the client retries with the right file instead of asking for a new slot.
 */
export async function removeRefusedUpload<E extends Error>(store: ObjectStore, key: string, refusal: E): Promise<E> {
  await store.remove([key]);
  return refusal;
}

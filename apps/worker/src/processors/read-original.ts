import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { StoredFile } from '@quire/material';
import type { ObjectInfo, ObjectStore } from '@quire/storage';

export type ReadOutcome = { ok: true } | { ok: false; code: 'CORRUPT'; message: string };

/**
 * Copies the material's original to `inputPath`, refusing any object other than the one `upload/complete`
 * accepted. An S3 upload URL takes PUTs until it expires, so the object is checked against the pinned size
 * and ETag before and after the copy, and the bytes copied are counted: an overwrite at any moment fails
 * the material instead of having another file's text processed (or served) as this one's.
 */
export async function readPinnedOriginal(
  store: ObjectStore,
  content: StoredFile,
  inputPath: string,
): Promise<ReadOutcome> {
  const key = content.s3Key;
  const before = await store.stat(key);
  if (!matches(before, content)) return changed(content, before);
  let bytes = 0;
  const body = await store.get(key);
  body.on('data', (chunk: Buffer) => (bytes += chunk.length));
  await pipeline(body, createWriteStream(inputPath));
  const after = await store.stat(key);
  if (!matches(after, content) || (content.fileSize !== undefined && bytes !== content.fileSize))
    return changed(content, after);
  return { ok: true };
}

function matches(found: ObjectInfo | null, pinned: StoredFile): boolean {
  if (!found) return false;
  if (pinned.fileSize !== undefined && found.size !== pinned.fileSize) return false;
  return !pinned.etag || found.etag === pinned.etag;
}

function changed(pinned: StoredFile, found: ObjectInfo | null): ReadOutcome {
  const seen = found ? `${found.size} bytes${found.etag ? `, ETag ${found.etag}` : ''}` : 'no object';
  const expected = `${pinned.fileSize ?? '?'} bytes${pinned.etag ? `, ETag ${pinned.etag}` : ''}`;
  return {
    ok: false,
    code: 'CORRUPT',
    message: `The stored original is not the file that was uploaded (expected ${expected}, found ${seen}); it was overwritten after upload/complete`,
  };
}

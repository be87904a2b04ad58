import { existingFolderIds } from '@quire/db';
import { claimContradicts, sniff } from '@quire/extract';
import type { Material } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { enqueueOrWithdraw } from './enqueue.ts';
import { insertMaterial, recordObject } from './material-writes.ts';
import type { NewMaterial } from './create.ts';

/**
 * A file a client uploaded, already in storage under `key` (the key of the material it is to become), as it
 * arrived: the one type of a stored upload, from the api's multipart receiver to the material's source.
 */
export interface StoredUpload {
  key: string;
  size: number;
  /** The first bytes, to sniff the real type from. */
  head: Buffer;
  /** The upload hit the size limit and was cut short. */
  truncated: boolean;
  /** SHA-256 of the whole file, hex. */
  sha256: string;
  /** The client's name for it, kept as metadata only (already made safe). */
  filename: string;
  /** The type the client sent it as. */
  mimeType: string;
}

/** Why an upload does not become a material: the caller answers the client, and removes the file. */
export type UploadRefusal =
  | { reason: 'too-large'; maxBytes: number }
  | { reason: 'empty' }
  | { reason: 'unsupported-type'; message: string }
  | { reason: 'ocr-languages'; message: string }
  | { reason: 'no-folder' };

export type UploadOutcome = { status: 'created'; material: Material } | ({ status: 'refused' } & UploadRefusal);

/** What a deployment accepts, checked in this order before anything is written. */
export interface UploadPreconditions {
  maxBytes: number;
  /** Why these OCR languages cannot be read here, or undefined when they can. */
  ocrLanguagesRefused(languages: string[] | undefined): string | undefined;
}

/**
 * A stored upload becomes a `processing` material owning its original, and its job is queued, once it passes
 * the preconditions: not cut short by the size limit, not empty, a type quire reads that the client's claim
 * does not contradict, OCR languages installed, its folder the organization's. The row and its ownership of
 * the file are written in one transaction. Refused otherwise, writing nothing: the file is still the caller's
 * to remove.
 */
export async function createFromUpload(
  deps: LifecycleDeps,
  input: NewMaterial & { id: string; file: StoredUpload },
  preconditions: UploadPreconditions,
): Promise<UploadOutcome> {
  const { file } = input;
  if (file.truncated) return { status: 'refused', reason: 'too-large', maxBytes: preconditions.maxBytes };
  if (file.size === 0) return { status: 'refused', reason: 'empty' };
  const sniffed = await sniff(file.head);
  if (!sniffed.supported) return { status: 'refused', reason: 'unsupported-type', message: sniffed.reason };
  if (claimContradicts(file.mimeType, sniffed.contentType)) {
    const message = `The file was sent as ${file.mimeType} but its bytes are ${sniffed.mimeType}`;
    return { status: 'refused', reason: 'unsupported-type', message };
  }
  const languages = preconditions.ocrLanguagesRefused(input.ocrLanguages);
  if (languages !== undefined) return { status: 'refused', reason: 'ocr-languages', message: languages };
  if (input.folderId !== null && !(await existingFolderIds(deps.db, input.organizationId, [input.folderId])).size) {
    return { status: 'refused', reason: 'no-folder' };
  }
  const material = await deps.db.transaction().execute(async (trx) => {
    const created = await insertMaterial(trx, {
      id: input.id,
      organizationId: input.organizationId,
      folderId: input.folderId,
      name: input.name,
      contentType: sniffed.contentType,
      status: 'processing',
      source: {
        kind: 'file',
        file: { s3Key: file.key, filename: file.filename, fileSize: file.size, mimeType: sniffed.mimeType },
      },
      ...(input.ocrLanguages ? { metadata: { ocrLanguages: input.ocrLanguages } } : {}),
      references: input.references,
      extractImages: input.extractImages,
      storageBytes: file.size,
    });
    await recordObject(trx, created.id, file.key, 'original', file.size);
    return created;
  });
  await enqueueOrWithdraw(deps, material, input.processingClass);
  return { status: 'created', material };
}

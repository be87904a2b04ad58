import { newId, type Db } from '@quire/db';
import type { ContentType } from '@quire/extract';
import { storageKeys, type ContentTypeClaim, type Material, type Reference } from '@quire/material';
import type { ProcessingClass } from '@quire/queue';
import type { LifecycleDeps } from './deps.ts';
import { enqueueOrWithdraw } from './enqueue.ts';
import { insertMaterial } from './material-writes.ts';

/** What every new material carries, whatever its bytes come from. */
export interface NewMaterial {
  organizationId: string;
  folderId: string | null;
  name: string;
  references: Reference[];
  extractImages: boolean;
  ocrLanguages?: string[] | undefined;
  /** `interactive` when someone waits for it (see @quire/queue's fair sharing); default `bulk`. */
  processingClass?: ProcessingClass | undefined;
}

/** A text material, `processing` until the worker has normalized and indexed its text. */
export function createFromText(
  deps: LifecycleDeps,
  input: NewMaterial & { text: string; requestedType?: ContentTypeClaim | undefined },
): Promise<Material> {
  return createWithoutBytes(deps, input, { kind: 'text', text: input.text }, 'text');
}

/** A URL material, whose bytes the worker fetches (and attaches as its original). */
export function createFromUrl(
  deps: LifecycleDeps,
  input: NewMaterial & { url: string; requestedType?: ContentTypeClaim | undefined },
): Promise<Material> {
  const claimed = input.requestedType;
  // A URL's real type is known only once its bytes are fetched; until then the client's claim stands in.
  const provisionalType = claimed === 'pdf' || claimed === 'video' || claimed === 'audio' ? claimed : 'text';
  return createWithoutBytes(deps, input, { kind: 'url', url: input.url }, provisionalType);
}

async function createWithoutBytes(
  deps: LifecycleDeps,
  input: NewMaterial & { requestedType?: ContentTypeClaim | undefined },
  source: { kind: 'text'; text: string } | { kind: 'url'; url: string },
  contentType: ContentType,
): Promise<Material> {
  const material = await insertMaterial(deps.db, {
    id: newId(),
    organizationId: input.organizationId,
    folderId: input.folderId,
    name: input.name,
    contentType,
    status: 'processing',
    source,
    metadata: {
      ...(input.requestedType ? { requestedType: input.requestedType } : {}),
      ...(input.ocrLanguages ? { ocrLanguages: input.ocrLanguages } : {}),
    },
    references: input.references,
    extractImages: input.extractImages,
  });
  await enqueueOrWithdraw(deps, material, input.processingClass);
  return material;
}

/** A slot awaiting its bytes at an upload URL: the client's claimed type stands until `completeUpload`. */
export interface PendingUpload extends NewMaterial {
  filename: string;
  mimeType: string;
  contentType: ContentType;
}

/** Creates the `pending_upload` materials of a batch, all or none; their upload URLs go to `storageKeys.original`. */
export async function createPendingUploads(deps: { db: Db }, items: PendingUpload[]): Promise<Material[]> {
  return deps.db.transaction().execute(async (trx) => {
    const created: Material[] = [];
    for (const item of items) {
      const id = newId();
      created.push(
        await insertMaterial(trx, {
          id,
          organizationId: item.organizationId,
          folderId: item.folderId,
          name: item.name,
          contentType: item.contentType,
          status: 'pending_upload',
          source: {
            kind: 'file',
            file: {
              s3Key: storageKeys.original(item.organizationId, id),
              filename: item.filename,
              mimeType: item.mimeType,
            },
          },
          references: item.references,
          extractImages: item.extractImages,
          ...(item.ocrLanguages ? { metadata: { ocrLanguages: item.ocrLanguages } } : {}),
        }),
      );
    }
    return created;
  });
}

import { sql } from 'kysely';
import type { Db } from '@quire/db';
import {
  assertTransitions,
  materialFromRow,
  metadataColumn,
  sourceColumn,
  referencesColumn,
  type ContentType,
  type Material,
  type MaterialMetadata,
  type MaterialSource,
  type MaterialStatus,
} from '@quire/material';

/**
 * The statements that write a material's row where its status is concerned (its creation, every status move,
 * its progress, its original) and the objects it owns. Only this package's steps call them (the package index does not export this
 * module, and the linter refuses it anywhere else), so each move is the step's, in the step's transaction.
 */

/** The statuses a material is created in: the rest are reached by moves. */
const CREATION_STATUSES: readonly MaterialStatus[] = ['pending_upload', 'processing'];

/** A material as created: what the database fills in (timestamps, derived bytes) is left out. */
export type NewMaterialInput = Pick<
  Material,
  'id' | 'organizationId' | 'folderId' | 'name' | 'contentType' | 'status' | 'source' | 'references' | 'extractImages'
> &
  Partial<Pick<Material, 'metadata' | 'storageBytes'>>;

export async function insertMaterial(db: Db, m: NewMaterialInput): Promise<Material> {
  if (!CREATION_STATUSES.includes(m.status)) throw new Error(`a material cannot be created in ${m.status}`);
  const now = new Date();
  const row = await db
    .insertInto('materials')
    .values({
      id: m.id,
      organization_id: m.organizationId,
      folder_id: m.folderId,
      name: m.name,
      content_type: m.contentType,
      status: m.status,
      content: sourceColumn(m.source),
      metadata: metadataColumn(m.metadata ?? {}),
      references: referencesColumn(m.references),
      extract_images: m.extractImages,
      storage_bytes: m.storageBytes ?? 0,
      processing_started_at: m.status === 'processing' ? now : null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return materialFromRow(row);
}

/**
 * Moves a material between states only if it is still in one of `from`; returns undefined when another
 * actor got there first, which makes every transition safe to attempt twice. Only the moves of
 * `STATUS_TRANSITIONS` are allowed.
 */
export async function transitionMaterial(
  db: Db,
  id: string,
  from: readonly MaterialStatus[],
  to: MaterialStatus,
  changes: {
    metadata?: MaterialMetadata;
    derivedBytes?: number;
    organizationId?: string;
    /** The bytes that arrived at a `pending_upload` material's upload URL. */
    upload?: { contentType: ContentType; source: MaterialSource; storageBytes: number };
  } = {},
): Promise<Material | undefined> {
  assertTransitions(from, to);
  let query = db
    .updateTable('materials')
    .set({
      status: to,
      updated_at: new Date(),
      ...(to === 'processing' ? { processing_started_at: new Date() } : {}),
      ...(changes.metadata ? { metadata: metadataColumn(changes.metadata) } : {}),
      ...(changes.derivedBytes !== undefined ? { derived_bytes: changes.derivedBytes } : {}),
      ...(changes.upload
        ? {
            content_type: changes.upload.contentType,
            content: sourceColumn(changes.upload.source),
            storage_bytes: changes.upload.storageBytes,
          }
        : {}),
    })
    .where('id', '=', id)
    .where('status', 'in', [...from]);
  if (changes.organizationId) query = query.where('organization_id', '=', changes.organizationId);
  const row = await query.returningAll().executeTakeFirst();
  return row && materialFromRow(row);
}

/** Merges `patch` into metadata while the material is processing (progress updates). */
export async function patchProcessingMetadata(
  db: Db,
  id: string,
  patch: Pick<MaterialMetadata, 'progress'>,
): Promise<void> {
  await db
    .updateTable('materials')
    .set({ metadata: sql`metadata || ${JSON.stringify(patch)}::jsonb`, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

/** Records the original of a material whose bytes arrived after creation (fetched URLs). */
export async function attachOriginalRow(
  db: Db,
  id: string,
  original: { contentType: ContentType; source: MaterialSource; storageBytes: number },
): Promise<boolean> {
  const result = await db
    .updateTable('materials')
    .set({
      content_type: original.contentType,
      content: sourceColumn(original.source),
      storage_bytes: original.storageBytes,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function touchProcessing(db: Db, id: string): Promise<void> {
  await db
    .updateTable('materials')
    .set({ processing_started_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

/** Makes the material own the object at `key` (removed with it, counted in its bytes). */
export async function recordObject(
  db: Db,
  materialId: string,
  key: string,
  kind: 'original' | 'derived',
  bytes: number,
): Promise<void> {
  await db
    .insertInto('material_objects')
    .values({ material_id: materialId, key, kind, bytes })
    .onConflict((oc) => oc.columns(['material_id', 'key']).doUpdateSet({ bytes, kind }))
    .execute();
}

/** The material no longer owns the objects at `keys` (they were removed). */
export async function forgetObjects(db: Db, materialId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('material_objects').where('material_id', '=', materialId).where('key', 'in', keys).execute();
}

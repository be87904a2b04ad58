import type { ColumnType, Generated, Selectable } from 'kysely';
import { z } from 'zod';
import { CONTENT_TYPES } from '@quire/extract';
import type { Material } from './material.ts';
import { metadataSchemaFor, type MaterialMetadata } from './metadata.ts';
import { parseStoredSource, toStoredContent, type MaterialSource } from './source.ts';
import type { MaterialStatus } from './status.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A jsonb column: read as whatever JSON it holds (parsed by `materialFromRow`), written as JSON text. */
type JsonColumn = ColumnType<unknown, string, string>;

/** The `materials` table as Postgres holds it; the rest of the code sees `Material`. */
export interface MaterialsTable {
  id: string;
  organization_id: string;
  folder_id: string | null;
  name: string;
  content_type: string;
  status: MaterialStatus;
  content: JsonColumn;
  metadata: JsonColumn;
  references: JsonColumn;
  extract_images: Generated<boolean>;
  storage_bytes: Generated<number>;
  derived_bytes: Generated<number>;
  processing_started_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type MaterialRow = Selectable<MaterialsTable>;

const contentTypeSchema = z.enum(CONTENT_TYPES);
// Older rows may hold references as they were accepted then; they are shown as stored, not re-validated.
const storedReferencesSchema = z.array(z.object({ title: z.string(), url: z.string() }));

/**
 * Reads a row into a `Material`. JSON columns are parsed, never cast: the source from its tagged form or the
 * untagged one earlier versions wrote, the metadata with the schema of the row's content type.
 */
export function materialFromRow(row: MaterialRow): Material {
  const contentType = contentTypeSchema.parse(row.content_type);
  try {
    return {
      id: row.id,
      organizationId: row.organization_id,
      folderId: row.folder_id,
      name: row.name,
      contentType,
      status: row.status,
      source: parseStoredSource(row.content),
      metadata: metadataSchemaFor(contentType).parse(row.metadata),
      references: storedReferencesSchema.parse(row.references),
      extractImages: row.extract_images,
      storageBytes: row.storage_bytes,
      derivedBytes: row.derived_bytes,
      processingStartedAt: row.processing_started_at,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  } catch (err) {
    throw new Error(`material ${row.id} has a row this version cannot read`, { cause: err });
  }
}

/** The JSON text of the columns a `Material` keeps as jsonb. */
export const sourceColumn = (source: MaterialSource) => JSON.stringify(toStoredContent(source));
export const metadataColumn = (metadata: MaterialMetadata) => JSON.stringify(metadata);
export const referencesColumn = (references: Material['references']) => JSON.stringify(references);

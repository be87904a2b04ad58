import { z } from 'zod';
import { listQuerySchema } from './materials.schema.ts';

const id = z.string().trim().min(1).max(200);
const name = z.string().trim().min(1, 'name is required').max(255);
const description = z.string().trim().max(5000).nullable();

/** What a client may set of a folder's metadata; the counts in it are quire's. */
const metadata = z.strictObject({
  color: z.string().trim().min(1).max(64).nullable().optional().meta({ examples: ['#3b82f6'] }),
  icon: z.string().trim().min(1).max(64).nullable().optional().meta({ examples: ['folder'] }),
});

export const createFolderSchema = z.strictObject({
  name,
  parentFolderId: id.nullable().optional(),
  description: description.optional(),
  metadata: metadata.optional(),
});

/** Renames or re-describes; a folder changes parent only through `PATCH /{id}/move`, which checks for cycles. */
export const updateFolderSchema = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  metadata: metadata.optional(),
});

export const moveFolderSchema = z.strictObject({
  parentFolderId: z.string({ error: 'must be a folder id or null' }).trim().min(1).max(200).nullable(),
});

export const folderMaterialsQuerySchema = listQuerySchema.omit({ folderId: true });

export const listFoldersQuerySchema = folderMaterialsQuerySchema.extend({ parentFolderId: id.optional() });

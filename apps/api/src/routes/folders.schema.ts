import { z } from 'zod';
import { isoTimestamp, materialListItemSchema } from '@quire/material';
import { listQuerySchema } from './materials.schema.ts';

const id = z.string().trim().min(1).max(200);
const name = z.string().trim().min(1, 'name is required').max(255);
const description = z.string().trim().max(5000).nullable();

/** What a client may set of a folder's metadata; the counts in it are quire's. */
const metadata = z.strictObject({
  color: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .meta({ examples: ['#3b82f6'] }),
  icon: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .meta({ examples: ['folder'] }),
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

export const listFoldersQuerySchema = folderMaterialsQuerySchema
  .omit({ include: true })
  .extend({ parentFolderId: id.optional() });

// Answers

export const folderSchema = z
  .strictObject({
    _id: z.string(),
    name: z.string(),
    organizationId: z.string(),
    parentFolderId: z.string().nullable(),
    description: z.string().nullable(),
    status: z.literal('active'),
    metadata: z.strictObject({
      color: z.string().nullable(),
      icon: z.string().nullable(),
      materialCount: z.number().int().meta({ description: 'Live materials directly in the folder' }),
      totalSize: z.number().int().meta({ description: "Bytes of those materials' originals" }),
      lastActivity: isoTimestamp.meta({
        description: 'When a material last came, went or changed size; the creation time until one does',
      }),
    }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: 'Folder' });

type TreeNode = z.infer<typeof folderSchema> & { materialCount: number; subfolders: TreeNode[] };
export const folderTreeNodeSchema: z.ZodType<TreeNode> = folderSchema
  .extend({
    materialCount: z.number().int(),
    get subfolders() {
      return z.array(folderTreeNodeSchema);
    },
  })
  .meta({ id: 'FolderTreeNode' });

export const folderDetailSchema = folderSchema
  .extend({
    subfolders: z.array(folderSchema).meta({ description: 'The direct children' }),
    materialCount: z.number().int().meta({ description: 'Live materials directly in the folder' }),
    totalSize: z.number().int().meta({ description: "Bytes of those materials' originals" }),
    materials: z
      .array(materialListItemSchema)
      .meta({ description: 'One page of the materials directly in the folder (`page`, `limit`)' }),
  })
  .meta({ id: 'FolderDetail' });

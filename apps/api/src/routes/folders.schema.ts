import { z } from 'zod';
import { isoTimestamp, materialListItemSchema } from '@quire/material';
import { listQuerySchema } from './materials.schema.ts';

const id = z.string().trim().min(1).max(200);
const name = z.string().trim().min(1, 'name is required').max(255);
const description = z.string().trim().max(5000).nullable();

/** The named colours a folder may take besides `#rrggbb`: the usual palette of web UIs. */
const FOLDER_PALETTE = [
  'red',
  'orange',
  'amber',
  'yellow',
  'lime',
  'green',
  'emerald',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
  'slate',
  'gray',
  'zinc',
  'neutral',
  'stone',
  'brown',
  'black',
  'white',
] as const;

/**
 * What a client may set of a folder's metadata; the counts in it are quire's. Clients put colour and icon
 * into their pages (a style attribute, an icon font's class), so both are refused unless plainly what they say.
 */
const metadata = z.strictObject({
  color: z
    .string()
    .trim()
    .refine((color) => /^#[0-9a-f]{6}$/i.test(color) || (FOLDER_PALETTE as readonly string[]).includes(color), {
      message: `must be #rrggbb or one of ${FOLDER_PALETTE.join(', ')}`,
    })
    .nullable()
    .optional()
    .meta({ description: '`#rrggbb`, or a palette name (`teal`, `rose`, ...)', examples: ['#3b82f6'] }),
  icon: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be an icon name: 1 to 32 of a-z, 0-9 and -')
    .nullable()
    .optional()
    .meta({ description: 'An icon name: 1 to 32 of `a-z`, `0-9`, `-`', examples: ['folder', 'book-open'] }),
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

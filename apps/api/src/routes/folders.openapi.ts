import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { documentApiRoute, isoTimestamp, idParams, json, jsonBody } from '../openapi/common.ts';
import { createFolderSchema, folderMaterialsQuerySchema, listFoldersQuerySchema, moveFolderSchema, updateFolderSchema } from './folders.schema.ts';
import { materialPageSchema } from './materials.openapi.ts';

const folderSchema = z
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
      lastActivity: isoTimestamp.meta({ description: 'When a material last came, went or changed size; the creation time until one does' }),
    }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: 'Folder' });

type TreeNode = z.infer<typeof folderSchema> & { materialCount: number; subfolders: TreeNode[] };
const folderTreeNodeSchema: z.ZodType<TreeNode> = folderSchema
  .extend({
    materialCount: z.number().int(),
    get subfolders() {
      return z.array(folderTreeNodeSchema);
    },
  })
  .meta({ id: 'FolderTreeNode' });

const params = idParams('Folder id');
const tags = ['Folders'];

export function documentFoldersRoutes(registry: OpenAPIRegistry): void {
  const route = (config: Parameters<typeof documentApiRoute>[1]) => documentApiRoute(registry, { tags, ...config });

  route({
    method: 'post',
    path: '/api/v1/folders',
    summary: 'Create a folder',
    request: { body: jsonBody(createFolderSchema) },
    responses: { 201: json('The folder', folderSchema) },
    errors: [400, 404, 413],
  });
  route({
    method: 'get',
    path: '/api/v1/folders',
    summary: 'List folders',
    request: { query: listFoldersQuerySchema },
    responses: {
      200: json(
        'One page',
        z.strictObject({ folders: z.array(folderSchema), totalCount: z.number().int(), page: z.number().int(), totalPages: z.number().int() }),
      ),
    },
    errors: [400, 404],
  });
  route({
    method: 'get',
    path: '/api/v1/folders/tree',
    summary: 'Every folder, nested, with material counts',
    responses: { 200: json('The roots', z.strictObject({ folders: z.array(folderTreeNodeSchema) })) },
  });
  route({
    method: 'get',
    path: '/api/v1/folders/{id}',
    summary: 'Get a folder with its subfolders and material count',
    request: { params },
    responses: { 200: json('The folder', folderSchema.extend({ subfolders: z.array(folderSchema), materialCount: z.number().int() })) },
    errors: [404],
  });
  route({
    method: 'patch',
    path: '/api/v1/folders/{id}',
    summary: 'Rename or re-describe a folder',
    request: { params, body: jsonBody(updateFolderSchema) },
    responses: { 200: json('The folder', folderSchema) },
    errors: [400, 404, 413],
  });
  route({
    method: 'delete',
    path: '/api/v1/folders/{id}',
    summary: 'Delete an empty folder',
    request: { params },
    responses: { 200: json('Deleted', z.strictObject({ success: z.literal(true), id: z.string() })) },
    errors: [404, 409],
  });
  route({
    method: 'get',
    path: '/api/v1/folders/{id}/materials',
    summary: 'List the materials in a folder',
    request: { params, query: folderMaterialsQuerySchema },
    responses: { 200: json('One page', materialPageSchema) },
    errors: [400, 404],
  });
  route({
    method: 'patch',
    path: '/api/v1/folders/{id}/move',
    summary: 'Move a folder under another (or to the top)',
    request: { params, body: jsonBody(moveFolderSchema) },
    responses: { 200: json('The folder', folderSchema) },
    errors: [400, 404, 409, 413],
  });
}

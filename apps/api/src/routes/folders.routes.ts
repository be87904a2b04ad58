import { z } from 'zod';
import { idParams, json } from '../openapi/common.ts';
import { toFolderTree, toFolderView } from '../views/folder-view.ts';
import * as folders from '../services/folders.service.ts';
import { materialPageJson } from '../views/material-view.ts';
import * as materials from '../services/materials.service.ts';
import {
  createFolderSchema,
  folderMaterialsQuerySchema,
  folderSchema,
  folderTreeNodeSchema,
  listFoldersQuerySchema,
  moveFolderSchema,
  updateFolderSchema,
} from './folders.schema.ts';
import { deletedSchema, materialPageSchema } from './materials.schema.ts';
import { apiRoute, JsonText, type AnyRoute, type Reply } from './route.ts';

const tags = ['Folders'];
const params = idParams('Folder id');
const ok = (body: unknown): Reply => ({ status: 200, body });

export const folderRoutes: AnyRoute[] = [
  apiRoute({
    method: 'post',
    path: '/api/v1/folders',
    tags,
    summary: 'Create a folder',
    body: { json: createFolderSchema },
    idempotent: true,
    responses: { 201: json('The folder', folderSchema) },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, body }) => {
      const folder = await folders.createFolder(ctx, principal.organizationId, {
        name: body.name,
        parentFolderId: body.parentFolderId ?? null,
        description: body.description ?? null,
        color: body.metadata?.color ?? null,
        icon: body.metadata?.icon ?? null,
      });
      return { status: 201, body: toFolderView(folder) };
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/folders',
    tags,
    summary: 'List folders',
    query: listFoldersQuerySchema,
    responses: {
      200: json(
        'One page',
        z.strictObject({
          folders: z.array(folderSchema),
          totalCount: z.number().int(),
          page: z.number().int(),
          totalPages: z.number().int(),
        }),
      ),
    },
    errors: [400, 404],
    handle: async ({ ctx, principal, query }) => {
      const page = await folders.listFolders(ctx, principal.organizationId, query);
      return ok({
        folders: page.rows.map(toFolderView),
        totalCount: page.totalCount,
        page: page.page,
        totalPages: page.totalPages,
      });
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/folders/tree',
    tags,
    summary: 'Every folder, nested, with material counts',
    responses: { 200: json('The roots', z.strictObject({ folders: z.array(folderTreeNodeSchema) })) },
    handle: async ({ ctx, principal }) => {
      return ok({ folders: toFolderTree(await folders.folderTree(ctx, principal.organizationId)) });
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/folders/{id}',
    tags,
    summary: 'Get a folder with its subfolders and material count',
    params,
    responses: {
      200: json(
        'The folder',
        folderSchema.extend({ subfolders: z.array(folderSchema), materialCount: z.number().int() }),
      ),
    },
    errors: [404],
    handle: async ({ ctx, principal, params }) => {
      const { folder, subfolders } = await folders.getFolder(ctx, principal.organizationId, params.id);
      return ok({
        ...toFolderView(folder),
        subfolders: subfolders.map(toFolderView),
        materialCount: folder.material_count,
      });
    },
  }),
  apiRoute({
    method: 'patch',
    path: '/api/v1/folders/{id}',
    tags,
    summary: 'Rename or re-describe a folder',
    params,
    body: { json: updateFolderSchema },
    responses: { 200: json('The folder', folderSchema) },
    errors: [400, 404, 413],
    handle: async ({ ctx, principal, params, body }) => {
      const { metadata, ...changes } = body;
      const update = { ...changes, color: metadata?.color, icon: metadata?.icon };
      return ok(toFolderView(await folders.updateFolder(ctx, principal.organizationId, params.id, update)));
    },
  }),
  apiRoute({
    method: 'delete',
    path: '/api/v1/folders/{id}',
    tags,
    summary: 'Delete an empty folder',
    params,
    responses: { 200: json('Deleted', deletedSchema) },
    errors: [404, 409],
    handle: async ({ ctx, principal, params }) => {
      await folders.deleteFolder(ctx, principal.organizationId, params.id);
      return ok({ success: true, id: params.id });
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/folders/{id}/materials',
    tags,
    summary: 'List the materials in a folder',
    params,
    query: folderMaterialsQuerySchema,
    responses: { 200: json('One page', materialPageSchema) },
    errors: [400, 404],
    handle: async ({ ctx, principal, params, query }) => {
      const page = await materials.listMaterials(ctx, principal.organizationId, { ...query, folderId: params.id });
      return ok(new JsonText(materialPageJson(page)));
    },
  }),
  apiRoute({
    method: 'patch',
    path: '/api/v1/folders/{id}/move',
    tags,
    summary: 'Move a folder under another (or to the top)',
    params,
    body: { json: moveFolderSchema },
    responses: { 200: json('The folder', folderSchema) },
    errors: [400, 404, 409, 413],
    handle: async ({ ctx, principal, params, body }) =>
      ok(toFolderView(await folders.moveFolder(ctx, principal.organizationId, params.id, body.parentFolderId))),
  }),
];

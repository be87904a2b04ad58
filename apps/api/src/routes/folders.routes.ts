import { z } from 'zod';
import { idParams, json } from '../openapi/common.ts';
import { toFolderTree, toFolderView } from '../views/folder-view.ts';
import * as folders from '../services/folders.service.ts';
import { materialPageJson } from '../views/material-view.ts';
import * as materials from '../services/materials.service.ts';
import {
  createFolderSchema,
  folderMaterialsQuerySchema,
  folderDetailSchema,
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

const pageHeaders = z.object({
  'X-Total-Count': z.string().meta({ description: 'Folders in the whole list' }),
  'X-Page': z.string().meta({ description: 'This page (1-based)' }),
  'X-Total-Pages': z.string().meta({ description: 'Pages in the whole list at this `limit`' }),
});

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
    description:
      'A bare JSON array, as the public service answers it; `page` and `limit` page through a long list and the ' +
      '`X-Total-Count`, `X-Page` and `X-Total-Pages` headers say how far it goes.',
    query: listFoldersQuerySchema,
    responses: { 200: json('One page of folders', z.array(folderSchema), pageHeaders) },
    errors: [400, 404],
    handle: async ({ ctx, principal, query }) => {
      const page = await folders.listFolders(ctx, principal.organizationId, query);
      return {
        status: 200,
        body: page.rows.map(toFolderView),
        headers: {
          'X-Total-Count': String(page.totalCount),
          'X-Page': String(page.page),
          'X-Total-Pages': String(page.totalPages),
        },
      };
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/folders/tree',
    tags,
    summary: 'Every folder, nested, with material counts',
    description: 'A bare JSON array of the top-level folders, each with its `subfolders` nested.',
    responses: { 200: json('The top-level folders', z.array(folderTreeNodeSchema)) },
    handle: async ({ ctx, principal }) => {
      return ok(toFolderTree(await folders.folderTree(ctx, principal.organizationId)));
    },
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/folders/{id}',
    tags,
    summary: 'Get a folder with its subfolders and its materials',
    description:
      '`materials` is one page of the materials directly in the folder, as `GET /{id}/materials` answers it (the ' +
      'first page unless `page` says otherwise); `materialCount` and `totalSize` count all of them.',
    params,
    query: folderMaterialsQuerySchema,
    responses: { 200: json('The folder', folderDetailSchema) },
    errors: [400, 404],
    handle: async ({ ctx, principal, params, query }) => {
      const { folder, subfolders } = await folders.getFolder(ctx, principal.organizationId, params.id);
      const page = await materials.listMaterials(ctx, principal.organizationId, { ...query, folderId: params.id });
      const view = JSON.stringify({
        ...toFolderView(folder),
        subfolders: subfolders.map(toFolderView),
        materialCount: folder.material_count,
        totalSize: folder.total_size,
      });
      // The items are already JSON (see MaterialJson); they are spliced in rather than parsed again.
      return ok(new JsonText(`${view.slice(0, -1)},"materials":[${page.rows.join(',')}]}`));
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

import { Router } from 'express';
import type { Material } from '@quire/db';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import { toFolderTree, toFolderView } from '../services/folder-view.ts';
import * as folders from '../services/folders.service.ts';
import { fingerprintOf, idempotent } from '../services/idempotency.ts';
import { toMaterialPage, toMaterialView } from '../services/material-view.ts';
import * as materials from '../services/materials.service.ts';
import {
  createFolderSchema,
  folderMaterialsQuerySchema,
  listFoldersQuerySchema,
  moveFolderSchema,
  updateFolderSchema,
} from './folders.schema.ts';

export function foldersRouter(ctx: ApiContext): Router {
  const router = Router();
  const materialView = (m: Material) => toMaterialView(m, ctx.store, ctx.config.DOWNLOAD_URL_TTL_SECONDS);

  router.post('/', async (req, res) => {
    const body = createFolderSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => {
      const folder = await folders.createFolder(ctx, principalOf(req).organizationId, {
        name: body.name,
        parentFolderId: body.parentFolderId ?? null,
        description: body.description ?? null,
        color: body.metadata?.color ?? null,
        icon: body.metadata?.icon ?? null,
      });
      return { status: 201, body: toFolderView(folder) };
    });
    if (reply.headers) res.set(reply.headers);
    res.status(reply.status).json(reply.body);
  });

  router.get('/', async (req, res) => {
    const query = listFoldersQuerySchema.parse(req.query);
    const page = await folders.listFolders(ctx, principalOf(req).organizationId, query);
    res.json({ folders: page.rows.map(toFolderView), totalCount: page.totalCount, page: page.page, totalPages: page.totalPages });
  });

  router.get('/tree', async (req, res) => {
    res.json({ folders: toFolderTree(await folders.folderTree(ctx, principalOf(req).organizationId)) });
  });

  router.get('/:id', async (req, res) => {
    const { folder, subfolders } = await folders.getFolder(ctx, principalOf(req).organizationId, req.params.id);
    res.json({ ...toFolderView(folder), subfolders: subfolders.map(toFolderView), materialCount: folder.material_count });
  });

  router.patch('/:id', async (req, res) => {
    const { metadata, ...changes } = updateFolderSchema.parse(req.body ?? {});
    const update = { ...changes, color: metadata?.color, icon: metadata?.icon };
    res.json(toFolderView(await folders.updateFolder(ctx, principalOf(req).organizationId, req.params.id, update)));
  });

  router.delete('/:id', async (req, res) => {
    await folders.deleteFolder(ctx, principalOf(req).organizationId, req.params.id);
    res.json({ success: true, id: req.params.id });
  });

  router.get('/:id/materials', async (req, res) => {
    const query = folderMaterialsQuerySchema.parse(req.query);
    const page = await materials.listMaterials(ctx, principalOf(req).organizationId, { ...query, folderId: req.params.id });
    res.json(await toMaterialPage(page, materialView));
  });

  router.patch('/:id/move', async (req, res) => {
    const body = moveFolderSchema.parse(req.body ?? {});
    res.json(toFolderView(await folders.moveFolder(ctx, principalOf(req).organizationId, req.params.id, body.parentFolderId)));
  });

  return router;
}

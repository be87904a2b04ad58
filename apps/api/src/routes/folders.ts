import { Router } from 'express';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import { toFolderTree, toFolderView } from '../services/folder-view.ts';
import * as folders from '../services/folders.service.ts';
import { fingerprintOf, idempotent } from '../services/idempotency.ts';
import { materialViewer, toMaterialPage } from '../services/material-view.ts';
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
  const materialView = materialViewer(ctx.store, ctx.config.DOWNLOAD_URL_TTL_SECONDS);

  router.post('/', async (req, res) => {
    const body = createFolderSchema.parse(req.body ?? {});
    const reply = await idempotent(ctx, req, fingerprintOf(req, req.body), async () => {
      const folder = await folders.createFolder(ctx, principalOf(req).organizationId, {
        name: body.name,
        parentFolderId: body.parentFolderId ?? null,
        description: body.description ?? null,
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
    const { folders: all, counts } = await folders.folderTree(ctx, principalOf(req).organizationId);
    res.json({ folders: toFolderTree(all, counts) });
  });

  router.get('/:id', async (req, res) => {
    const { folder, subfolders, materialCount } = await folders.getFolder(ctx, principalOf(req).organizationId, req.params.id);
    res.json({ ...toFolderView(folder), subfolders: subfolders.map(toFolderView), materialCount });
  });

  router.patch('/:id', async (req, res) => {
    const body = updateFolderSchema.parse(req.body ?? {});
    res.json(toFolderView(await folders.updateFolder(ctx, principalOf(req).organizationId, req.params.id, body)));
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

import {
  countSubfolders,
  deleteFolder as deleteFolderRow,
  existingFolderIds,
  findFolder,
  folderAncestry,
  insertFolder,
  listAllFolders,
  listFolders as listFolderRows,
  listSubfolders,
  lockFolder,
  lockFolderTree,
  newId,
  updateFolder as updateFolderRow,
  type Db,
  type Folder,
} from '@quire/db';
import type { ApiContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { offsetOf, pageOf } from './pagination.ts';

const folderNotFound = () => notFound('Folder');

/** Every given folder id must name a folder of this organization (404 "Folder not found" otherwise). */
export async function requireFolders(
  db: Db,
  organizationId: string,
  ids: (string | null | undefined)[],
): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  if (wanted.length === 0) return;
  const found = await existingFolderIds(db, organizationId, wanted);
  if (found.size !== wanted.length) throw folderNotFound();
}

export interface FolderInput {
  name: string;
  parentFolderId: string | null;
  description: string | null;
  color: string | null;
  icon: string | null;
}

export async function createFolder(ctx: ApiContext, organizationId: string, input: FolderInput): Promise<Folder> {
  await requireFolders(ctx.db, organizationId, [input.parentFolderId]);
  return insertFolder(ctx.db, { id: newId(), organizationId, ...input });
}

export async function getFolder(ctx: ApiContext, organizationId: string, id: string) {
  const folder = await findFolder(ctx.db, organizationId, id);
  if (!folder) throw folderNotFound();
  return { folder, subfolders: await listSubfolders(ctx.db, organizationId, id) };
}

export async function updateFolder(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string | null; color?: string | null; icon?: string | null },
): Promise<Folder> {
  const updated = await updateFolderRow(ctx.db, organizationId, id, changes);
  if (!updated) throw folderNotFound();
  return updated;
}

export async function listFolders(
  ctx: ApiContext,
  organizationId: string,
  q: { parentFolderId?: string; search?: string; page: number; limit: number },
) {
  await requireFolders(ctx.db, organizationId, [q.parentFolderId]);
  const found = await listFolderRows(ctx.db, organizationId, {
    parentFolderId: q.parentFolderId,
    search: q.search,
    limit: q.limit,
    offset: offsetOf(q),
  });
  return pageOf(found, q);
}

export async function folderTree(ctx: ApiContext, organizationId: string): Promise<Folder[]> {
  return listAllFolders(ctx.db, organizationId);
}

/** Deletes an empty folder: one that holds no live material and no subfolder (409 otherwise). */
export async function deleteFolder(ctx: ApiContext, organizationId: string, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // Locked first: nothing can be moved or created into the folder until this transaction ends.
    const folder = await lockFolder(trx, organizationId, id);
    if (!folder) throw folderNotFound();
    const subfolders = await countSubfolders(trx, organizationId, id);
    const materials = folder.material_count;
    if (materials > 0 || subfolders > 0) {
      throw conflict(`The folder is not empty: it holds ${materials} material(s) and ${subfolders} subfolder(s)`);
    }
    await deleteFolderRow(trx, organizationId, id);
  });
}

/**
 * Moves a folder under another one (or to the top with null). A folder cannot go into itself or any folder
 * below it: 409, since whether a move makes a cycle depends on the tree as it is now.
 */
export async function moveFolder(
  ctx: ApiContext,
  organizationId: string,
  id: string,
  parentFolderId: string | null,
): Promise<Folder> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockFolderTree(trx, organizationId);
    if (!(await findFolder(trx, organizationId, id))) throw folderNotFound();
    if (parentFolderId !== null) {
      const ancestry = await folderAncestry(trx, organizationId, parentFolderId);
      if (ancestry.length === 0) throw folderNotFound();
      if (ancestry.includes(id)) throw conflict('A folder cannot be moved into itself or into one of its subfolders');
    }
    const moved = await updateFolderRow(trx, organizationId, id, { parentFolderId });
    if (!moved) throw folderNotFound();
    return moved;
  });
}

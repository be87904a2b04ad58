import type { Folder } from '@quire/db';

export interface FolderView {
  _id: string;
  name: string;
  organizationId: string;
  parentFolderId: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FolderTreeNode extends FolderView {
  materialCount: number;
  subfolders: FolderTreeNode[];
}

/** The wire shape of a folder, in the style of the material's. */
export function toFolderView(folder: Folder): FolderView {
  return {
    _id: folder.id,
    name: folder.name,
    organizationId: folder.organization_id,
    parentFolderId: folder.parent_folder_id,
    description: folder.description,
    createdAt: folder.created_at.toISOString(),
    updatedAt: folder.updated_at.toISOString(),
  };
}

/** Nests an organization's folders under their parents; `counts` holds live materials per folder. */
export function toFolderTree(folders: Folder[], counts: Map<string, number>): FolderTreeNode[] {
  const nodes = new Map(folders.map((f) => [f.id, { ...toFolderView(f), materialCount: counts.get(f.id) ?? 0, subfolders: [] as FolderTreeNode[] }]));
  const roots: FolderTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentFolderId === null ? undefined : nodes.get(node.parentFolderId);
    (parent ? parent.subfolders : roots).push(node);
  }
  return roots;
}

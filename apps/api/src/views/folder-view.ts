import type { Folder } from '@quire/db';

export interface FolderMetadata {
  color: string | null;
  icon: string | null;
  materialCount: number;
  totalSize: number;
  lastActivity: string;
}

export interface FolderView {
  _id: string;
  name: string;
  organizationId: string;
  parentFolderId: string | null;
  description: string | null;
  /** Deleted folders are gone, so every folder a client can see is active. */
  status: 'active';
  metadata: FolderMetadata;
  createdAt: string;
  updatedAt: string;
}

export interface FolderTreeNode extends FolderView {
  materialCount: number;
  subfolders: FolderTreeNode[];
}

/** The wire shape of a folder, in the style of the material's; counts come from the folder row (0010). */
export function toFolderView(folder: Folder): FolderView {
  return {
    _id: folder.id,
    name: folder.name,
    organizationId: folder.organization_id,
    parentFolderId: folder.parent_folder_id,
    description: folder.description,
    status: 'active',
    metadata: {
      color: folder.color,
      icon: folder.icon,
      materialCount: folder.material_count,
      totalSize: folder.total_size,
      lastActivity: (folder.last_activity ?? folder.created_at).toISOString(),
    },
    createdAt: folder.created_at.toISOString(),
    updatedAt: folder.updated_at.toISOString(),
  };
}

/** Nests an organization's folders under their parents. */
export function toFolderTree(folders: Folder[]): FolderTreeNode[] {
  const nodes = new Map(
    folders.map((f) => [
      f.id,
      { ...toFolderView(f), materialCount: f.material_count, subfolders: [] as FolderTreeNode[] },
    ]),
  );
  const roots: FolderTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentFolderId === null ? undefined : nodes.get(node.parentFolderId);
    (parent ? parent.subfolders : roots).push(node);
  }
  return roots;
}

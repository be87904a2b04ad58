import type { Material, MaterialContent } from '@quire/db';
import type { ObjectStore } from '@quire/storage';

export interface MaterialView {
  _id: string;
  name: string;
  organizationId: string;
  folderId: string | null;
  contentType: string;
  content: MaterialContent & { s3Url?: string };
  status: string;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, unknown>;
  usage: { storageBytes: number; derivedBytes: number };
  references: unknown[];
}

type StoredImage = { s3Key?: string } & Record<string, unknown>;

/** The wire shape of a material; time-limited URLs are minted per response, never stored. */
export async function toMaterialView(material: Material, store: ObjectStore, urlTtlSeconds: number): Promise<MaterialView> {
  const content = { ...(material.content as MaterialContent) } as MaterialView['content'];
  const live = material.status !== 'pending_upload' && material.status !== 'deleted';
  const sign = (key: string, filename?: string) => store.presignGet(key, urlTtlSeconds, filename ? { filename } : {});
  if (content.s3Key && live) content.s3Url = await sign(content.s3Key, content.filename);

  const metadata = { ...material.metadata };
  if (live) {
    const withUrl = async (image: StoredImage) => (image.s3Key ? { ...image, s3Url: await sign(image.s3Key) } : image);
    if (Array.isArray(metadata.images)) metadata.images = await Promise.all((metadata.images as StoredImage[]).map(withUrl));
    for (const rendition of ['preview', 'thumbnail'] as const) {
      const image = metadata[rendition] as StoredImage | undefined;
      if (image?.s3Key) metadata[rendition] = await withUrl(image);
    }
  }

  return {
    _id: material.id,
    name: material.name,
    organizationId: material.organization_id,
    folderId: material.folder_id,
    contentType: material.content_type,
    content,
    status: material.status,
    createdAt: material.created_at.toISOString(),
    updatedAt: material.updated_at.toISOString(),
    metadata,
    usage: { storageBytes: material.storage_bytes, derivedBytes: material.derived_bytes },
    references: material.references as unknown[],
  };
}

/** A page of materials on the wire, as the list endpoints answer it. */
export async function toMaterialPage(
  page: { rows: Material[]; totalCount: number; page: number; totalPages: number },
  view: (m: Material) => Promise<MaterialView>,
) {
  return { materials: await Promise.all(page.rows.map(view)), totalCount: page.totalCount, page: page.page, totalPages: page.totalPages };
}

import { z } from 'zod';
import { CONTENT_TYPES } from '@quire/extract';
import { referenceSchema, type Material } from './material.ts';
import { anyMetadataSchema, CONTENT_METADATA, materialErrorSchema, storedImageSchema } from './metadata.ts';
import { storedFileSchema, toFlatContent } from './source.ts';
import { MATERIAL_STATUSES } from './status.ts';

/**
 * The material on the wire, derived from the domain schemas: `content` is the source flattened (the wire
 * predates the tagged source), time-limited URLs are added per response and never stored.
 */
const signedUrl = (description: string) => z.string().optional().meta({ description });

export const wireImageSchema = storedImageSchema
  .extend({ s3Url: signedUrl('Time-limited GET URL, minted per response') })
  .meta({ id: 'MaterialImage' });

export const wireContentSchema = z.strictObject({
  text: z.string().optional().meta({ description: 'A text material' }),
  url: z.string().optional().meta({ description: 'A URL material; its file fields appear once it is fetched' }),
  ...storedFileSchema.partial().shape,
  s3Url: signedUrl('Time-limited GET URL of the original, minted per response'),
});

export const isoTimestamp = z.iso.datetime({ offset: false }).meta({ example: '2025-01-07T23:59:59.999Z' });

export const materialViewSchema = z
  .strictObject({
    _id: z.string().meta({ example: '01936f0e-7a53-7cc2-9d4e-2b7f6f3c9a10' }),
    name: z.string(),
    organizationId: z.string(),
    folderId: z.string().nullable(),
    contentType: z.enum(CONTENT_TYPES),
    content: wireContentSchema,
    status: z.enum(MATERIAL_STATUSES),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    metadata: anyMetadataSchema
      .extend({
        error: materialErrorSchema.optional(),
        images: z.array(wireImageSchema).optional(),
        preview: wireImageSchema.optional(),
        thumbnail: wireImageSchema.optional(),
      })
      .meta({ description: 'Filled by processing; the fields besides the common ones depend on the content type' }),
    usage: z.strictObject({
      storageBytes: z.number().int().meta({ description: 'Bytes held for the original' }),
      derivedBytes: z.number().int().meta({ description: 'Bytes held for what processing made' }),
    }),
    references: z.array(referenceSchema),
  })
  .meta({ id: 'Material' });
export type MaterialView = z.infer<typeof materialViewSchema>;
export type WireImage = z.infer<typeof wireImageSchema>;

/** Signs a storage key for one response; given a file name, the download carries it. */
export type SignUrl = (key: string, filename?: string) => Promise<string>;

/** The wire shape of a material; `sign` is called only for a material whose objects exist. */
export async function toMaterialView(material: Material, sign: SignUrl): Promise<MaterialView> {
  const live = material.status !== 'pending_upload' && material.status !== 'deleted';
  const content: MaterialView['content'] = toFlatContent(material.source);
  if (content.s3Key && live) content.s3Url = await sign(content.s3Key, content.filename);

  const metadata: MaterialView['metadata'] = { ...material.metadata };
  if (live) {
    const withUrl = async <T extends { s3Key: string }>(image: T) => ({ ...image, s3Url: await sign(image.s3Key) });
    const { images, preview, thumbnail } = material.metadata;
    if (images) metadata.images = await Promise.all(images.map(withUrl));
    if (preview) metadata.preview = await withUrl(preview);
    if (thumbnail) metadata.thumbnail = await withUrl(thumbnail);
  }

  return {
    _id: material.id,
    name: material.name,
    organizationId: material.organizationId,
    folderId: material.folderId,
    contentType: material.contentType,
    content,
    status: material.status,
    createdAt: material.createdAt.toISOString(),
    updatedAt: material.updatedAt.toISOString(),
    metadata,
    usage: { storageBytes: material.storageBytes, derivedBytes: material.derivedBytes },
    references: material.references,
  };
}

/**
 * What a list leaves out unless `include` names it: whatever grows with the material (its text, a row per page
 * or chapter, an entry per image) and the full-size preview (lists show the thumbnail). `GET /{id}` always
 * carries all of it.
 */
export const LIST_INCLUDES = ['text', 'pages', 'chapters', 'images'] as const;
export type ListInclude = (typeof LIST_INCLUDES)[number];

/** The metadata keys each include brings back (content.text goes with `text`). */
const HEAVY_METADATA: Record<ListInclude, string[]> = {
  text: ['extractedText'],
  pages: ['pages'],
  chapters: ['chapters', 'toc'],
  images: ['images', 'preview'],
};

/** What a list need not even read for `include`: the metadata keys it leaves out, and whether it leaves out content.text. */
export function listOmissions(include: readonly ListInclude[]): { metadataKeys: string[]; contentText: boolean } {
  return {
    metadataKeys: LIST_INCLUDES.filter((i) => !include.includes(i)).flatMap((i) => HEAVY_METADATA[i]),
    contentText: !include.includes('text'),
  };
}

const onlyWith = (include: ListInclude) => ({ description: `Only with \`include=${include}\`` });

export const materialListItemSchema = materialViewSchema
  .extend({
    content: wireContentSchema.extend({
      text: z.string().optional().meta(onlyWith('text')),
    }),
    metadata: materialViewSchema.shape.metadata.extend({
      extractedText: z.string().optional().meta(onlyWith('text')),
      pages: CONTENT_METADATA.pdf.shape.pages.meta(onlyWith('pages')),
      chapters: CONTENT_METADATA.epub.shape.chapters.meta(onlyWith('chapters')),
      toc: CONTENT_METADATA.epub.shape.toc.meta(onlyWith('chapters')),
      images: z.array(wireImageSchema).optional().meta(onlyWith('images')),
      preview: wireImageSchema.optional().meta(onlyWith('images')),
    }),
  })
  .meta({
    id: 'MaterialListItem',
    description:
      'A material as lists show it: everything `GET /{id}` answers except its text (`content.text`, ' +
      '`metadata.extractedText`), per-page rows (`metadata.pages`), chapters (`metadata.chapters`, `metadata.toc`) ' +
      'and images (`metadata.images` and the full-size `metadata.preview`; the `thumbnail` stays), each brought back ' +
      'by naming it in `include`',
  });

/** The list shape of a material: the heavy fields `include` does not name are left out, and their URLs never signed. */
export async function toMaterialListItem(
  material: Material,
  include: ReadonlySet<ListInclude>,
  sign: SignUrl,
): Promise<MaterialView> {
  const { extractedText, pages, chapters, toc, images, preview, ...metadata } = material.metadata;
  const kept = {
    ...metadata,
    ...(include.has('text') && extractedText !== undefined ? { extractedText } : {}),
    ...(include.has('pages') && pages !== undefined ? { pages } : {}),
    ...(include.has('chapters') && chapters !== undefined ? { chapters } : {}),
    ...(include.has('chapters') && toc !== undefined ? { toc } : {}),
    ...(include.has('images') && images !== undefined ? { images } : {}),
    ...(include.has('images') && preview !== undefined ? { preview } : {}),
  };
  const view = await toMaterialView({ ...material, metadata: kept }, sign);
  if (!include.has('text')) delete view.content.text;
  return view;
}

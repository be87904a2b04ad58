import { z } from 'zod';

/** The bytes of a material kept in storage: an upload, a batch slot, or what the worker fetched for a URL. */
export const storedFileSchema = z.object({
  s3Key: z.string(),
  filename: z.string(),
  /** Absent while a batch slot waits for its upload. */
  fileSize: z.number().int().nonnegative().optional(),
  mimeType: z.string(),
});
export type StoredFile = z.infer<typeof storedFileSchema>;

/** Where a material came from. A URL's bytes are `fetched` once the worker has downloaded them. */
export const materialSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('url'), url: z.string(), fetched: storedFileSchema.optional() }),
  z.object({ kind: z.literal('file'), file: storedFileSchema }),
]);
export type MaterialSource = z.infer<typeof materialSourceSchema>;
export type MaterialKind = MaterialSource['kind'];

/** The stored original of a material, if it has one (text has none; a URL has one once fetched). */
export function originalOf(source: MaterialSource): StoredFile | undefined {
  if (source.kind === 'file') return source.file;
  if (source.kind === 'url') return source.fetched;
  return undefined;
}

/**
 * `content` as rows written before the source had a kind hold it (and as the wire still shows it): one flat
 * object whose kind follows from which fields are set.
 */
const flatContentSchema = z.object({
  text: z.string().optional(),
  url: z.string().optional(),
  s3Key: z.string().optional(),
  filename: z.string().optional(),
  fileSize: z.number().int().nonnegative().optional(),
  mimeType: z.string().optional(),
});
export type FlatContent = z.infer<typeof flatContentSchema>;

/** Reads the `content` column: the tagged source, or the flat shape of rows written before it existed. */
export function parseStoredSource(value: unknown): MaterialSource {
  if (value !== null && typeof value === 'object' && 'kind' in value) return materialSourceSchema.parse(value);
  const flat = flatContentSchema.parse(value);
  const file = (): StoredFile | undefined =>
    flat.s3Key === undefined
      ? undefined
      : {
          s3Key: flat.s3Key,
          filename: flat.filename ?? 'upload',
          mimeType: flat.mimeType ?? 'application/octet-stream',
          ...(flat.fileSize !== undefined ? { fileSize: flat.fileSize } : {}),
        };
  if (flat.url !== undefined) {
    const fetched = file();
    return { kind: 'url', url: flat.url, ...(fetched ? { fetched } : {}) };
  }
  const stored = file();
  if (stored) return { kind: 'file', file: stored };
  if (flat.text !== undefined) return { kind: 'text', text: flat.text };
  throw new Error('material content has neither text, url nor s3Key');
}

/** The flat `content` object of the wire format (which predates the tagged source). */
export function toFlatContent(source: MaterialSource): FlatContent {
  switch (source.kind) {
    case 'text':
      return { text: source.text };
    case 'url':
      return { url: source.url, ...source.fetched };
    case 'file':
      return { ...source.file };
  }
}

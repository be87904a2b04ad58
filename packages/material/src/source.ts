import { z } from 'zod';

/** The bytes of a material kept in storage: an upload, a batch slot, or what the worker fetched for a URL. */
export const storedFileSchema = z.object({
  s3Key: z.string(),
  filename: z.string(),
  /** Absent while a batch slot waits for its upload. */
  fileSize: z.number().int().nonnegative().optional(),
  mimeType: z.string(),
  /** The original's ETag as `upload/complete` saw it (S3 driver); processing and downloads refuse any other. */
  etag: z
    .string()
    .optional()
    .meta({ description: 'The ETag of the original that upload/complete accepted (S3 storage)' }),
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
 * `content` as the column holds it: the wire's flat object (`{text}`, `{url, s3Key?, …}` or
 * `{s3Key, filename, …}`) tagged with its `kind`, so SQL can still read `content->>'s3Key'`. Rows written
 * before the tag have none, and their kind follows from which fields are set.
 */
const storedContentSchema = z.object({
  kind: z.enum(['text', 'url', 'file']).optional(),
  text: z.string().optional(),
  url: z.string().optional(),
  s3Key: z.string().optional(),
  filename: z.string().optional(),
  fileSize: z.number().int().nonnegative().optional(),
  mimeType: z.string().optional(),
  etag: z.string().optional(),
});
export type FlatContent = Omit<z.infer<typeof storedContentSchema>, 'kind'>;

/** Reads the `content` column into a source. */
export function parseStoredSource(value: unknown): MaterialSource {
  const { kind, ...flat } = storedContentSchema.parse(value);
  const file =
    flat.s3Key === undefined
      ? undefined
      : {
          s3Key: flat.s3Key,
          filename: flat.filename ?? 'upload',
          mimeType: flat.mimeType ?? 'application/octet-stream',
          ...(flat.fileSize !== undefined ? { fileSize: flat.fileSize } : {}),
          ...(flat.etag !== undefined ? { etag: flat.etag } : {}),
        };
  switch (kind ?? (flat.url !== undefined ? 'url' : file ? 'file' : flat.text !== undefined ? 'text' : undefined)) {
    case 'url':
      return materialSourceSchema.parse({ kind: 'url', url: flat.url, ...(file ? { fetched: file } : {}) });
    case 'file':
      return materialSourceSchema.parse({ kind: 'file', file });
    case 'text':
      return materialSourceSchema.parse({ kind: 'text', text: flat.text });
    case undefined:
      throw new Error('material content has neither text, url nor s3Key');
  }
}

/** The `content` column's value of a source. */
export const toStoredContent = (source: MaterialSource) => ({ kind: source.kind, ...toFlatContent(source) });

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

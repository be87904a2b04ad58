import { z } from 'zod';
import { EXTRACT_ERROR_CODES, type ContentType } from '@quire/extract';

/**
 * What a material's `metadata` holds. Objects are loose: a field written by an older (or newer) version
 * is kept and passed on, never dropped; the fields named here are the ones the code reads or writes.
 */

/** Why a material ended `error`: what extraction reports, or `CANCELLED` when a client cancelled its job. */
export const MATERIAL_ERROR_CODES = [...EXTRACT_ERROR_CODES, 'CANCELLED'] as const;
export type MaterialErrorCode = (typeof MATERIAL_ERROR_CODES)[number];

export const materialErrorSchema = z
  .looseObject({
    code: z.enum(MATERIAL_ERROR_CODES),
    message: z.string(),
    claimedType: z.string().optional().meta({ description: 'The `content.type` the client claimed for a URL' }),
    detectedType: z.string().optional().meta({ description: 'The type the fetched bytes turned out to be' }),
  })
  .meta({ id: 'MaterialError', description: 'Why processing failed (`metadata.error` of a material in `error`)' });
export type MaterialError = z.infer<typeof materialErrorSchema>;

/** An image processing kept: extracted from the file, a video keyframe, or a rendition of the whole file. */
export const storedImageSchema = z.looseObject({
  id: z.string(),
  s3Key: z.string(),
  page: z.number().int().optional(),
  chapter: z.number().int().optional(),
  timestampMs: z.number().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  format: z.string().optional(),
  kind: z.string().optional().meta({ description: '`extracted` or `keyframe`' }),
});
export type StoredImage = z.infer<typeof storedImageSchema>;

/** What one processing run measured; replaced by every run. */
export const runMeasuresSchema = z.object({
  processingMs: z.number(),
  peakMemoryMb: z.number().optional().meta({ description: "The sandboxed extraction's peak, when one ran" }),
});
export type RunMeasures = z.infer<typeof runMeasuresSchema>;

/** What a successful run publishes besides the content type's own fields. */
export const processingResultSchema = z.object({
  extractedText: z.string().optional(),
  textKey: z.string().optional().meta({ description: 'Storage key of the text when it is too large to inline' }),
  textUrl: z.string().optional().meta({
    description: 'Where the whole text is when it is too large to inline: `GET /api/v1/materials/{id}/text`',
  }),
  segmentsKey: z
    .string()
    .optional()
    .meta({ description: 'Storage key of the text segments with their positions (NDJSON), served by `/text`' }),
  wordCount: z.number().int(),
  textLength: z.number().int(),
  images: z.array(storedImageSchema).optional().meta({ description: 'Only when images were asked for' }),
  preview: storedImageSchema.optional(),
  thumbnail: storedImageSchema.optional(),
  extractor: z
    .object({ name: z.string(), version: z.number().int() })
    .meta({ description: 'Which extractor made the result' }),
});
export type ProcessingResult = z.infer<typeof processingResultSchema>;

/** What a client may say a URL is (`content.type`); the fetched bytes decide. */
export const CONTENT_TYPE_CLAIMS = ['text', 'pdf', 'video', 'audio', 'url'] as const;
export type ContentTypeClaim = (typeof CONTENT_TYPE_CLAIMS)[number];

/** The fields every material may have, whatever its type; all optional, since they come and go with the status. */
const commonShape = {
  requestedType: z
    .enum(CONTENT_TYPE_CLAIMS)
    .optional()
    .meta({ description: 'The `content.type` a URL was created with' }),
  progress: z.number().int().min(0).max(100).optional().meta({ description: 'While processing' }),
  ocrLanguages: z
    .array(z.string())
    .optional()
    .meta({ description: 'The OCR languages asked for at upload (else every configured one is used)' }),
  error: materialErrorSchema.optional(),
  ...runMeasuresSchema.partial().shape,
  ...processingResultSchema.partial().shape,
};

const pageSchema = z.looseObject({
  page: z.number().int(),
  offset: z.number().int(),
  length: z.number().int(),
  wordCount: z.number().int(),
});
const chapterSchema = z.looseObject({
  chapter: z.number().int(),
  title: z.string().optional(),
  href: z.string(),
  offset: z.number().int(),
  length: z.number().int(),
  wordCount: z.number().int(),
});

/** The fields each content type's extractor adds (`ExtractResult.metadata`). */
export const CONTENT_METADATA = {
  text: z.looseObject({
    format: z.string().optional().meta({
      description:
        '`plain`, `html`, or the office format the file was read as: `docx`, `pptx`, `xlsx`, `odt`, `odp`, `ods`, `rtf`, `csv`, `tsv`, `doc`, `ppt`, `xls`',
    }),
    title: z.string().optional(),
    ...officeDocumentShape(),
    // What a web page says about itself (format `html`).
    extraction: z.enum(['article', 'whole-page']).optional().meta({
      description: 'A web page: `article` kept its main content only; `whole-page` found no article and kept all of it',
    }),
    fallbackReason: z.string().optional().meta({ description: 'Why the whole page was kept' }),
    lang: z.string().optional(),
    canonicalUrl: z.string().optional(),
    siteName: z.string().optional(),
    author: z.string().optional(),
    publishedAt: z.string().optional().meta({ description: 'ISO 8601, when the page gave a readable date' }),
    excerpt: z.string().optional(),
  }),
  pdf: z.looseObject({
    pageCount: z.number().int().optional(),
    pages: z.array(pageSchema).optional(),
    title: z.string().optional(),
    author: z.string().optional(),
    subject: z.string().optional(),
    creator: z.string().optional(),
    producer: z.string().optional(),
    pdfVersion: z.string().optional(),
    encrypted: z.boolean().optional().meta({ description: 'Encrypted with an empty user password, so readable' }),
    textless: z
      .boolean()
      .optional()
      .meta({ description: 'No text at all: neither a text layer nor anything OCR read' }),
    ocr: z
      .looseObject({
        engine: z.string(),
        language: z.string(),
        pages: z.number().int().meta({ description: 'Pages read with OCR (pages without a text layer)' }),
        confidence: z.number().optional().meta({ description: "Mean of those pages' confidences, 0..100" }),
        skippedPages: z.number().int().optional().meta({
          description: 'Pages without a text layer left unread: budget spent, page too slow or not renderable',
        }),
      })
      .optional()
      .meta({ description: 'Present when some pages had no text layer and were read with OCR' }),
    textEngine: z
      .string()
      .optional()
      .meta({ description: 'What read the text: `pdfium`, or `pdf.js` for a file PDFium refused' }),
    imagesCutShort: z
      .looseObject({ reason: z.string(), message: z.string(), imagesKept: z.number().int() })
      .optional()
      .meta({
        description:
          'Image extraction stopped before the end (its share of the time budget ran out): the text is whole, `images` holds those made so far',
      }),
  }),
  epub: z.looseObject({
    title: z.string().optional(),
    author: z.string().optional(),
    language: z.string().optional(),
    publisher: z.string().optional(),
    epubVersion: z.string().optional(),
    chapterCount: z.number().int().optional(),
    chapters: z.array(chapterSchema).optional(),
    textless: z.boolean().optional().meta({ description: 'The chapters hold no text (pictures only, or unreadable)' }),
    toc: z
      .array(
        z.looseObject({
          title: z.string().optional(),
          href: z.string().optional(),
          chapter: z.number().int().optional(),
        }),
      )
      .optional(),
  }),
  image: z.looseObject({
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    format: z.string().optional(),
    orientation: z.number().int().optional(),
    frames: z.number().int().optional(),
    ocr: z.looseObject({ engine: z.string(), language: z.string(), confidence: z.number().optional() }).optional(),
  }),
  audio: mediaSchema(),
  video: mediaSchema(),
} satisfies Record<ContentType, z.ZodObject>;

/** What a document, a deck or a workbook says about itself (a text material of an office format). */
function officeDocumentShape() {
  return {
    pageCount: z
      .number()
      .int()
      .optional()
      .meta({ description: 'A word-processing document: pages, as its application counted them' }),
    slideCount: z.number().int().optional().meta({ description: 'A presentation: its slides' }),
    sheetCount: z.number().int().optional().meta({ description: 'A workbook: its sheets' }),
    hiddenSlides: z
      .array(z.number().int())
      .optional()
      .meta({ description: 'The slides the deck hides (their text is kept, marked `hidden`)' }),
    cutSheets: z
      .array(
        z.looseObject({
          sheet: z.number().int(),
          name: z.string(),
          cellsKept: z.number().int(),
          cutAt: z.enum(['maxCellsPerSheet', 'maxWorkbookChars']).optional().meta({
            description:
              'The limit it was cut at: its own cells, or the characters of the whole workbook (the sheets after it keep no cells)',
          }),
        }),
      )
      .optional()
      .meta({
        description:
          'Sheets cut at `maxCellsPerSheet` cells or at `maxWorkbookChars` characters of the workbook: the rest of their cells is not in the text',
      }),
    maxCellsPerSheet: z.number().int().optional(),
    maxWorkbookChars: z.number().int().optional().meta({
      description: 'Present when the workbook was cut at this many characters of cell text, all sheets together',
    }),
    maxRepeatedChars: z.number().int().optional().meta({
      description:
        "An OpenDocument text or presentation: present when its tables' repeated cells (written once in the file with a repeat count) were copied out only up to this many characters, all tables together; past it each is kept once",
    }),
    comments: z
      .array(z.looseObject({ author: z.string().optional(), text: z.string() }))
      .optional()
      .meta({ description: "A document's comments, which are left out of its text" }),
    convertedBy: z
      .string()
      .optional()
      .meta({ description: 'A legacy binary format: what converted it (`libreoffice`)' }),
  };
}

function mediaSchema() {
  return z.looseObject({
    durationSeconds: z.number().optional(),
    bitrate: z.number().optional(),
    container: z.string().optional(),
    codecs: z.looseObject({ audio: z.string().optional(), video: z.string().optional() }).optional(),
    hasAudio: z.boolean().optional(),
    hasVideo: z.boolean().optional(),
    sampleRate: z.number().optional(),
    channels: z.number().optional(),
    audioBitrate: z.number().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    frameRate: z.number().optional(),
    videoBitrate: z.number().optional(),
    transcription: z
      .looseObject({
        engine: z.string(),
        chunkCount: z.number().int().optional().meta({ description: 'Chunks a long recording was transcribed in' }),
        complete: z
          .boolean()
          .optional()
          .meta({ description: 'False when a stretch of a chunked recording has no words' }),
        missing: z
          .array(z.strictObject({ startMs: z.number(), endMs: z.number(), reason: z.string() }))
          .optional()
          .meta({ description: 'The stretches of the recording left without words, and why' }),
      })
      .optional(),
  });
}

/** Metadata of a material of any type: the common fields typed, the type's own fields passed through. */
export const materialMetadataSchema = z.looseObject(commonShape);
export type MaterialMetadata = z.infer<typeof materialMetadataSchema>;

const metadataSchemas = new Map<ContentType, ReturnType<typeof extendedFor>>();
const extendedFor = (contentType: ContentType) => CONTENT_METADATA[contentType].extend(commonShape);

/**
 * Metadata of a material of one content type, every field it may carry typed. Built once per type: every row
 * read goes through it, and a new zod schema compiles its parser again on first use (milliseconds each).
 */
export function metadataSchemaFor(contentType: ContentType) {
  let schema = metadataSchemas.get(contentType);
  if (!schema) metadataSchemas.set(contentType, (schema = extendedFor(contentType)));
  return schema;
}

/** The wire (OpenAPI) shape of metadata: the common fields and every content type's own, all optional. */
export const anyMetadataSchema = z.looseObject({
  ...CONTENT_METADATA.text.shape,
  ...CONTENT_METADATA.pdf.shape,
  ...CONTENT_METADATA.epub.shape,
  ...CONTENT_METADATA.image.shape,
  ...CONTENT_METADATA.video.shape,
  ...commonShape,
});

/** Drops what belongs to a previous run: its progress and its memory peak. */
export function withoutRunState(metadata: MaterialMetadata): MaterialMetadata {
  const { progress: _progress, peakMemoryMb: _peak, ...rest } = metadata;
  return rest;
}

/** The metadata a successful run leaves: the previous state minus the last run's, the extractor's fields, the result. */
export function withResult(
  previous: MaterialMetadata,
  contentFields: Record<string, unknown>,
  result: ProcessingResult,
  run: RunMeasures,
): MaterialMetadata {
  const {
    error: _error,
    extractedText: _text,
    textKey: _textKey,
    textUrl: _textUrl,
    segmentsKey: _segmentsKey,
    images: _images,
    preview: _preview,
    thumbnail: _thumbnail,
    ...kept
  } = withoutRunState(previous);
  return { ...kept, ...contentFields, ...result, ...run };
}

/** The metadata a failed run leaves: what the material had (its last result stays readable), the error, the run. */
export function withError(previous: MaterialMetadata, error: MaterialError, run: RunMeasures): MaterialMetadata {
  return { ...withoutRunState(previous), error, ...run };
}

/** The metadata a reprocessed material starts its new run with: the previous result, without its error. */
export function forReprocessing(previous: MaterialMetadata): MaterialMetadata {
  const { error: _error, ...rest } = previous;
  return rest;
}

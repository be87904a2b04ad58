import { z } from 'zod';
import {
  CONTENT_TYPE_CLAIMS,
  CONTENT_TYPES,
  LIST_INCLUDES,
  MATERIAL_STATUSES,
  materialErrorSchema,
  materialListItemSchema,
  materialViewSchema,
} from '@quire/material';
import { errorBodySchema } from '../openapi/common.ts';
import { referenceInputSchema } from './reference.schema.ts';

const MAX_NAME = 500;

export const referencesSchema = z.array(referenceInputSchema).max(500);

const name = z.string().trim().min(1, 'name is required').max(MAX_NAME);
const id = z.string().trim().min(1).max(200);
const folderId = id.nullable().optional();
/** Where a move puts a material: a folder id, or null for no folder; it must be given. */
const targetFolderId = z.string({ error: 'must be a folder id or null' }).trim().min(1).max(200).nullable();
const filename = z.string().trim().min(1).max(1000);
const mimeType = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type');

export const waitOptionsSchema = {
  timeoutMs: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(300_000)
    .meta({ description: 'How long to wait before answering 202' }),
  pollIntervalMs: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(2000)
    .meta({ description: 'How often the database is re-read while waiting, in case the completion event is lost' }),
};

const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Multipart fields arrive as text: booleans as "true"/"false", references as a JSON string. */
const referencesText = z
  .string()
  .max(256 * 1024)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'references must be a JSON array of {title, url}' });
      return z.NEVER;
    }
  })
  .pipe(referencesSchema)
  .meta({ description: 'A JSON array of {title, url}' });

const ocrLanguages = z
  .array(z.string().regex(/^[a-z]{3}(_[a-z]+)?$/i, 'a tesseract language code, e.g. eng or fra'))
  .min(1)
  .max(10)
  // A language named twice would be loaded and read twice by OCR: kept once, in the order first given.
  .transform((languages) => [...new Set(languages)])
  .meta({
    description:
      'Languages OCR reads this material in (scans, images), e.g. ["eng","fra"]; each must be installed ' +
      '(OCR_LANGUAGES), else 400. Default: every installed language',
  });
const ocrLanguagesText = z
  .string()
  .transform((list) => list.split(/[,+\s]+/).filter(Boolean))
  .pipe(ocrLanguages)
  .meta({ description: 'OCR languages, comma separated (e.g. `eng,fra`); each must be installed, else 400' });

export const uploadFieldsSchema = z.strictObject({
  name,
  folderId,
  extractImages: booleanText
    .default(true)
    .meta({ default: 'true', description: 'Extract embedded images, keyframes and renditions' }),
  references: referencesText.optional(),
  ocrLanguages: ocrLanguagesText.optional(),
});

export const uploadAndWaitFieldsSchema = uploadFieldsSchema.extend(waitOptionsSchema);

const httpUrl = z
  .string()
  .max(4000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const createContentSchema = z
  .strictObject({
    text: z.string().min(1).optional(),
    url: httpUrl.optional(),
    sourceUrl: httpUrl.optional(),
    type: z.enum(CONTENT_TYPE_CLAIMS).optional(),
  })
  .superRefine((content, ctx) => {
    const given = (['text', 'url', 'sourceUrl'] as const).filter((k) => content[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'content must have exactly one of text, url or sourceUrl' });
      return;
    }
    if (content.type === 'text' && content.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'type "text" needs content.text' });
    }
    if (content.type && content.type !== 'text' && content.text !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: `type "${content.type}" needs content.url or content.sourceUrl`,
      });
    }
  });

export const createAndWaitSchema = z.strictObject({
  name,
  content: createContentSchema,
  folderId,
  references: referencesSchema.optional(),
  extractImages: z.boolean().optional(),
  ocrLanguages: ocrLanguages.optional(),
  ...waitOptionsSchema,
});

export const urlUploadSchema = z.strictObject({ name, url: httpUrl, folderId });

export const urlUploadAndWaitSchema = z.strictObject({
  url: httpUrl,
  name,
  folderId,
  references: referencesSchema.optional(),
  ...waitOptionsSchema,
});

export const batchSchema = z.strictObject({
  materials: z
    .array(
      z.strictObject({
        name,
        filename,
        contentType: mimeType,
        folderId,
        ocrLanguages: ocrLanguages.optional(),
      }),
    )
    .min(1, 'materials must have at least one item'),
});

export const completeSchema = z.strictObject({
  materialId: z.string().trim().min(1).max(200),
  s3Key: z.string().trim().min(1).max(1000),
});

export const listQuerySchema = z.object({
  folderId: id.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  search: z.string().max(200).optional(),
  include: z
    .string()
    .optional()
    .transform((list) => (list ? list.split(',').map((item) => item.trim()) : []))
    .pipe(z.array(z.enum(LIST_INCLUDES)))
    .meta({
      description:
        'Comma-separated heavy fields to bring back into each item: `text`, `pages`, `chapters`, `images` ' +
        '(see MaterialListItem)',
      example: 'pages,images',
    }),
});

export const patchSchema = z.strictObject({
  references: referencesSchema.optional(),
});

export const createSchema = z.strictObject({
  name,
  content: createContentSchema,
  folderId,
  references: referencesSchema.optional(),
  extractImages: z.boolean().optional(),
  ocrLanguages: ocrLanguages.optional(),
});

export const presignedUploadSchema = z.strictObject({
  filename,
  contentType: mimeType,
  name,
  folderId,
  extractImages: z.boolean().optional(),
  ocrLanguages: ocrLanguages.optional(),
  references: referencesSchema.optional(),
});

export const moveSchema = z.strictObject({ folderId: targetFolderId });

export const renameSchema = z.strictObject({ name });

export const BULK_MOVE_MAX = 1000;
export const bulkMoveSchema = z.strictObject({
  materialIds: z.array(id).min(1, 'materialIds must have at least one id').max(BULK_MOVE_MAX),
  folderId: targetFolderId,
});

export const downloadUrlQuerySchema = z.object({
  expiresIn: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(3600),
  download: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true')
    .meta({ description: '`1`: the URL saves the file (`attachment`) instead of showing it (`inline`)' }),
});

export const searchSchema = z.strictObject({
  query: z.string().trim().min(1, 'query is required').max(1000),
  topK: z.number().int().min(1).max(50).default(5),
  passagesPerMaterial: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(1)
    .meta({ description: 'How many passages of one material may be among the results (its best ones)' }),
  materialIds: z.array(id).max(1000).optional(),
  folderIds: z.array(id).max(1000).optional(),
});

// Answers

export const materialPageSchema = z
  .strictObject({
    materials: z.array(materialListItemSchema),
    totalCount: z.number().int(),
    page: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'MaterialPage' });

export const uploadHandleSchema = z.strictObject({ uploadUrl: z.string(), s3Key: z.string(), materialId: z.string() });

export const processingFailedSchema = errorBodySchema.extend({ material: materialViewSchema.optional() }).meta({
  id: 'ProcessingFailed',
  description: 'The error body plus the material, now `error` (no material for an Idempotency-Key mismatch)',
});

export const deletedSchema = z.strictObject({ success: z.literal(true), id: z.string() });

export const searchResultsSchema = z
  .strictObject({
    query: z.string(),
    results: z.array(
      z.strictObject({
        score: z.number().min(0).max(1).meta({
          description:
            "Relevance, 0..1, best first: raw / (raw + h), where raw is the BM25 score and h the sum of the query words' idf",
        }),
        text: z.string(),
        chunkIndex: z.number().int(),
        heading: z
          .array(z.string())
          .optional()
          .meta({ description: 'The headings the passage stands under, outermost first' }),
        page: z.number().int().optional(),
        slide: z.number().int().optional(),
        chapter: z.number().int().optional(),
        startMs: z.number().optional(),
        endMs: z.number().optional(),
        box: z.array(z.number()).length(4).optional().meta({
          description: 'Where the passage stands on its PDF page: `[x0, y0, x1, y1]` in points from the top left',
        }),
        material: z.strictObject({ id: z.string(), name: z.string(), contentType: z.enum(CONTENT_TYPES) }),
        matchedTerms: z.array(z.string()).meta({
          description: 'The query words the passage holds (stemmed alike, or the word a misspelling was taken for)',
        }),
        highlights: z
          .array(z.strictObject({ start: z.number().int(), end: z.number().int() }))
          .meta({ description: 'Where the matched words are in `text`: JavaScript string offsets, `end` exclusive' }),
      }),
    ),
    totalResults: z.number().int(),
    filtered: z.boolean(),
    scope: z.strictObject({ materialIds: z.array(z.string()).nullable(), folderIds: z.array(z.string()).nullable() }),
  })
  .meta({ id: 'SearchResults' });

export const materialStatusEventSchema = z
  .strictObject({
    _id: z.string(),
    status: z.enum(MATERIAL_STATUSES),
    progress: z.number().int().min(0).max(100).optional().meta({ description: 'While `processing`' }),
    error: materialErrorSchema.optional().meta({ description: 'When `error`' }),
  })
  .meta({
    id: 'MaterialStatusEvent',
    description: 'Data of an `event: status` message: sent first, and whenever the status changes',
  });

export const materialProgressEventSchema = z
  .strictObject({ _id: z.string(), progress: z.number().int().min(0).max(100) })
  .meta({ id: 'MaterialProgressEvent', description: 'Data of an `event: progress` message: processing advanced' });

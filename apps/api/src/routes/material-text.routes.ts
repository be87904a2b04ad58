import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { textSegmentSchema } from '@quire/material';
import { AppError } from '../errors.ts';
import { idParams } from '../openapi/common.ts';
import { openMarkdown } from '../services/material-markdown.service.ts';
import { openSegments, openText, segmentPage } from '../services/material-text.service.ts';
import { apiRoute, type AnyRoute } from './route.ts';

const FORMATS = ['text', 'json', 'ndjson', 'markdown'] as const;

export const textQuerySchema = z.object({
  format: z
    .enum(FORMATS)
    .optional()
    .meta({
      description:
        '`text` (the default): the whole text, `text/plain`. `json`: a page of segments with their positions. ' +
        '`ndjson`: every segment, one JSON object per line, streamed. `markdown`: the whole document as ' +
        'CommonMark with GFM tables, streamed. Without it, `Accept: application/json`, `application/x-ndjson` or ' +
        '`text/markdown` chooses.',
    }),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).meta({ description: 'With `format=json`' }),
  limit: z.coerce.number().int().min(1).max(1000).default(100).meta({ description: 'Segments per page (`json`)' }),
  start: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000_000)
    .optional()
    .meta({ description: "With `format=json`: the index of the first segment, instead of `page` (a page's `next`)" }),
});

export const textSegmentPageSchema = z
  .strictObject({
    segments: z.array(textSegmentSchema),
    page: z.number().int(),
    limit: z.number().int(),
    hasMore: z.boolean().meta({ description: 'Whether a next page has segments' }),
    next: z
      .number()
      .int()
      .optional()
      .meta({
        description:
          'With `hasMore`: the index of the next segment, to pass as `start`. A page holds at most about 2 MB of ' +
          'segments and may stop before `limit`; then `page + 1` would skip segments, `start=next` does not',
      }),
  })
  .meta({ id: 'TextSegmentPage' });

const MEDIA_TYPES = ['text/plain', 'application/json', 'application/x-ndjson', 'text/markdown'];
const FORMAT_OF_MEDIA_TYPE: Record<string, (typeof FORMATS)[number]> = {
  'application/json': 'json',
  'application/x-ndjson': 'ndjson',
  'text/markdown': 'markdown',
};

/** `format` decides; without it `Accept` does, and an `Accept` that takes none of the four is a 406. */
function formatOf(req: Request, format: (typeof FORMATS)[number] | undefined): (typeof FORMATS)[number] {
  if (format) return format;
  const preferred = req.accepts(MEDIA_TYPES);
  if (!preferred) {
    throw new AppError(
      406,
      'NOT_ACCEPTABLE',
      `The text is served as ${MEDIA_TYPES.join(', ')}; the Accept header takes none of them`,
    );
  }
  return FORMAT_OF_MEDIA_TYPE[preferred] ?? 'text';
}

/** Sends a stream; a storage error before the first byte becomes an error body, after it a cut connection. */
async function stream(res: Response, contentType: string, body: Readable): Promise<void> {
  res.status(200).type(contentType);
  try {
    await pipeline(body, res);
  } catch (err) {
    if (!res.headersSent) throw err;
    res.destroy(err as Error);
  }
}

export const materialTextRoutes: AnyRoute[] = [
  apiRoute({
    method: 'get',
    path: '/api/v1/materials/{id}/text',
    tags: ['Materials'],
    summary: 'The whole extracted text, its segments with their positions, or the document as Markdown',
    description: [
      'Works for text of any size (also when it is too long for `metadata.extractedText` and the material has',
      '`metadata.textUrl` instead): the body is streamed from storage. With `format=json` (or',
      '`Accept: application/json`), a page of segments in reading order; with `format=ndjson` (or',
      '`Accept: application/x-ndjson`), all of them, one per line. Each segment says where it is (`page`,',
      '`chapter`, `startMs`/`endMs`), how it was read (`source`: `text-layer`, `ocr`, `transcript`; OCR adds',
      '`confidence`) and where it starts in the whole text (`offset`): `text.slice(offset, offset + length)`',
      'is the segment. No segment is longer than 16,384 characters: a long text comes as consecutive segments cut',
      'at paragraph breaks. Each segment is an element of the document: `kind` (`heading`, `list-item`, `table`,',
      "`figure`, `code`...; absent for a paragraph), a heading's `level` or a list item's depth, `path` (the",
      "headings it stands under, outermost first), a table's `rows` of cells, a figure's `image` (an id of",
      '`metadata.images`) and, for PDFs, `box`. With `format=markdown` (or `Accept: text/markdown`), the whole',
      'document as CommonMark with GFM tables: page and slide changes as HTML comments, figures as images linked',
      'to their signed URLs; a material processed before structure was kept reads as its paragraphs. 409 while',
      'the material is not `active`; 406 when, without `format`, `Accept` takes none of the four media types.',
    ].join(' '),
    params: idParams('Material id'),
    query: textQuerySchema,
    responses: {
      200: {
        description:
          'The text (`text/plain`), a page of segments (`application/json`), every segment (NDJSON), or the ' +
          'document as Markdown (`text/markdown`)',
        content: {
          'text/plain; charset=utf-8': { schema: z.string() },
          'application/json': { schema: textSegmentPageSchema },
          'application/x-ndjson': {
            schema: textSegmentSchema,
            example: '{"text":"…","offset":0,"page":1,"source":"text-layer"}\n',
          },
          'text/markdown; charset=utf-8': {
            schema: z.string(),
            example:
              '<!-- page 1 -->\n\n# Cells\n\n- Nucleus\n- Ribosome\n\n| Name | Role |\n|---|---|\n| Mitochondrion | ATP |\n',
          },
        },
      },
    },
    errors: [400, 404, 406, 409],
    handle: async ({ ctx, principal, params, query, http }) => {
      const { organizationId } = principal;
      switch (formatOf(http.req, query.format)) {
        case 'json':
          return {
            status: 200,
            body: await segmentPage(ctx, organizationId, params.id, query.page, query.limit, query.start),
          };
        case 'ndjson':
          return stream(http.res, 'application/x-ndjson', await openSegments(ctx, organizationId, params.id));
        case 'text':
          return stream(http.res, 'text/plain; charset=utf-8', await openText(ctx, organizationId, params.id));
        case 'markdown':
          return stream(http.res, 'text/markdown; charset=utf-8', await openMarkdown(ctx, organizationId, params.id));
      }
    },
  }),
];

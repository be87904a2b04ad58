import { z } from 'zod';
import { anyMetadataSchema, isoTimestamp, materialViewSchema } from '@quire/material';

export const jobStatusSchema = z
  .strictObject({
    jobId: z.string().meta({ description: "The processing job's id: the material's id" }),
    status: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']).meta({
      description:
        '`pending` waiting for its upload or its turn, `running`, `completed` (the material is `active`), `failed` ' +
        '(`error`), `cancelled` (`error` with code `CANCELLED`)',
    }),
    startedAt: isoTimestamp.optional(),
    completedAt: isoTimestamp.optional(),
    error: z.string().optional().meta({ description: 'Why it failed' }),
    queue: z
      .strictObject({
        jobsAhead: z.number().int().min(0).meta({ description: 'Jobs that will be taken before this one (0: next)' }),
        queued: z.number().int().min(1).meta({ description: 'Jobs waiting for a processing slot, this one included' }),
        estimatedWaitMs: z
          .number()
          .int()
          .min(0)
          .nullable()
          .meta({
            description:
              'Those jobs at the rate the fleet finished jobs over the last 10 minutes; null when it finished too few ' +
              "to tell. Other organizations' jobs take their turns too, so it is an estimate",
          }),
      })
      .optional()
      .meta({ description: 'While `pending` with its job queued: where it stands (not in the public API)' }),
    progress: z.strictObject({
      percentage: z.number().min(0).max(100),
      currentBatch: z.number().int().optional().meta({ description: "A long recording's chunks transcribed so far" }),
      totalBatches: z.number().int().optional().meta({ description: "A long recording's chunks" }),
      processedImages: z.number().int().optional(),
      totalImages: z.number().int().optional(),
    }),
    resultSummary: z
      .strictObject({
        textExtracted: z.boolean(),
        textLength: z.number().int(),
        imagesProcessed: z.number().int(),
        processingTimeMs: z.number(),
      })
      .optional()
      .meta({ description: 'Once completed' }),
  })
  .meta({ id: 'JobStatus' });

export const debugInfoSchema = z
  .strictObject({
    materialId: z.string(),
    name: z.string(),
    status: z.string(),
    contentType: z.string(),
    content: z.looseObject({}).meta({ description: 'The content as stored (no signed URL)' }),
    metadata: anyMetadataSchema.meta({ description: 'The metadata as stored, nothing left out' }),
    images: z.array(
      z.strictObject({
        id: z.string(),
        pageIndex: z.number().int().optional().meta({ description: "0-based page of a PDF's image" }),
        s3Key: z.string(),
        s3Url: z.string(),
        description: z.string(),
      }),
    ),
    transcriptStructure: z
      .looseObject({
        chunked: z.boolean(),
        chunks: z.array(
          z.strictObject({
            index: z.number().int(),
            startMs: z.number(),
            endMs: z.number(),
            state: z.enum(['transcribed', 'failed', 'pending']),
            segments: z.number().int(),
            error: z.string().optional(),
          }),
        ),
      })
      .optional()
      .meta({ description: 'Audio and video: `metadata.transcription` and the chunks of a long recording' }),
  })
  .meta({ id: 'MaterialDebugInfo' });

export const cancelledJobSchema = z
  .strictObject({
    success: z.literal(true),
    jobId: z.string(),
    status: z.literal('cancelled'),
    message: z.string(),
    material: materialViewSchema.meta({ description: 'The material, now `error` with code `CANCELLED`' }),
  })
  .meta({ id: 'CancelledJob' });

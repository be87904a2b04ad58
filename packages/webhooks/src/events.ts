import { z } from 'zod';
import { CONTENT_TYPES, isoTimestamp, materialErrorSchema, type Material } from '@quire/material';

export const WEBHOOK_EVENTS = ['material.processed', 'material.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The material as a webhook carries it: no signed URLs (they would expire before a late retry). */
const webhookMaterialSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  folderId: z.string().nullable(),
  contentType: z.enum(CONTENT_TYPES),
  status: z.enum(['active', 'error']),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  processingMs: z.number().optional(),
  wordCount: z.number().int().optional(),
  error: materialErrorSchema
    .pick({ code: true, message: true })
    .optional()
    .meta({ description: 'Why processing failed' }),
});

/** The JSON body of every delivery; `id` is the event's, the same for every webhook it goes to. */
export const webhookEventSchema = z
  .strictObject({
    id: z.string(),
    type: z.enum(WEBHOOK_EVENTS),
    createdAt: z.iso.datetime(),
    data: z.strictObject({ material: webhookMaterialSchema }),
  })
  .meta({ id: 'WebhookEvent' });

export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export function materialEvent(id: string, type: WebhookEventType, material: Material): WebhookEvent {
  const { processingMs, wordCount, error } = material.metadata;
  return {
    id,
    type,
    createdAt: new Date().toISOString(),
    data: {
      material: {
        _id: material.id,
        name: material.name,
        organizationId: material.organizationId,
        folderId: material.folderId,
        contentType: material.contentType,
        status: material.status === 'active' ? 'active' : 'error',
        createdAt: material.createdAt.toISOString(),
        updatedAt: material.updatedAt.toISOString(),
        ...(processingMs !== undefined ? { processingMs } : {}),
        ...(wordCount !== undefined ? { wordCount } : {}),
        ...(error ? { error: { code: error.code, message: error.message } } : {}),
      },
    },
  };
}

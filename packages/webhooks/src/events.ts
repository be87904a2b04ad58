import { z } from 'zod';
import type { Material } from '@quire/db';

export const WEBHOOK_EVENTS = ['material.processed', 'material.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The material as a webhook carries it: no signed URLs (they would expire before a late retry). */
const webhookMaterialSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  folderId: z.string().nullable(),
  contentType: z.string(),
  status: z.enum(['active', 'error']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  processingMs: z.number().optional(),
  wordCount: z.number().int().optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional().meta({ description: 'Why processing failed' }),
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
  const metadata = material.metadata;
  const error = metadata.error as { code: string; message: string } | undefined;
  return {
    id,
    type,
    createdAt: new Date().toISOString(),
    data: {
      material: {
        _id: material.id,
        name: material.name,
        organizationId: material.organization_id,
        folderId: material.folder_id,
        contentType: material.content_type,
        status: material.status === 'active' ? 'active' : 'error',
        createdAt: material.created_at.toISOString(),
        updatedAt: material.updated_at.toISOString(),
        ...(typeof metadata.processingMs === 'number' ? { processingMs: metadata.processingMs } : {}),
        ...(typeof metadata.wordCount === 'number' ? { wordCount: metadata.wordCount } : {}),
        ...(error ? { error: { code: error.code, message: error.message } } : {}),
      },
    },
  };
}

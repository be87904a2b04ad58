import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { documentApiRoute, idParams } from '../openapi/common.ts';
import { MATERIAL_STATUSES, materialErrorSchema } from './materials.openapi.ts';

export const materialStatusEventSchema = z
  .strictObject({
    _id: z.string(),
    status: z.enum(MATERIAL_STATUSES),
    progress: z.number().int().min(0).max(100).optional().meta({ description: 'While `processing`' }),
    error: materialErrorSchema.optional().meta({ description: 'When `error`' }),
  })
  .meta({ id: 'MaterialStatusEvent', description: 'Data of an `event: status` message: sent first, and whenever the status changes' });

export const materialProgressEventSchema = z
  .strictObject({ _id: z.string(), progress: z.number().int().min(0).max(100) })
  .meta({ id: 'MaterialProgressEvent', description: 'Data of an `event: progress` message: processing advanced' });

export function documentMaterialEventsRoute(registry: OpenAPIRegistry): void {
  documentApiRoute(registry, {
    tags: ['Materials'],
    method: 'get',
    path: '/api/v1/materials/{id}/events',
    summary: 'Follow processing live (Server-Sent Events)',
    description: [
      'A `text/event-stream` of `status` messages (data: `MaterialStatusEvent`) and `progress` messages',
      '(data: `MaterialProgressEvent`). The first message is the current status. The stream closes after the',
      'status becomes `active`, `error` or `deleted`; a material already settled gets one message. Comment lines',
      '(`: heartbeat`) keep an idle stream open. Send `x-api-key` like on every endpoint (use a fetch-based SSE',
      "client: the browser's `EventSource` cannot send headers).",
    ].join(' '),
    request: { params: idParams('Material id') },
    responses: {
      200: {
        description: 'The event stream; the schema is that of one message\'s `data` (OpenAPI 3.1 cannot describe a stream)',
        content: {
          'text/event-stream': {
            schema: z.union([materialStatusEventSchema, materialProgressEventSchema]),
            example: 'event: status\ndata: {"_id":"…","status":"processing","progress":5}\n\nevent: progress\ndata: {"_id":"…","progress":50}\n\nevent: status\ndata: {"_id":"…","status":"active"}\n\n',
          },
        },
      },
    },
    errors: [404],
  });
}

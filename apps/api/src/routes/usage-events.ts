import { Router } from 'express';
import type { ApiContext } from '../context.ts';
import { principalOf } from '../middleware/authenticate.ts';
import { listUsageEvents, recordUsageEvents } from '../services/usage-events.service.ts';
import { listEventsQuerySchema, parseEventBatch } from './usage-events.schema.ts';

/** `/api/v1/usage/events`: how the platform reports activity, and a way to read it back. */
export function usageEventsRouter(ctx: ApiContext): Router {
  const router = Router();

  router.post('/events', async (req, res) => {
    const events = parseEventBatch(req.body ?? {});
    res.json(await recordUsageEvents(ctx, principalOf(req), events));
  });

  router.get('/events', async (req, res) => {
    const q = listEventsQuerySchema.parse(req.query);
    res.json(
      await listUsageEvents(ctx, principalOf(req), {
        from: q.startDate,
        to: q.endDate,
        type: q.eventType,
        userId: q.userId,
        groupId: q.groupId,
        limit: q.limit,
        offset: q.offset,
      }),
    );
  });

  return router;
}

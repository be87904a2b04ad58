import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';

export const ADMIN_QUEUES_PATH = '/admin/queues';

// bull-board's page asks Google for its fonts; the policy keeps the dashboard to this server (system fonts).
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; frame-ancestors 'none'";

/** The bull-board dashboard of every queue; the caller puts it behind the admin token. */
export function adminQueuesHandlers(queues: Queue[]): RequestHandler[] {
  const serverAdapter = new ExpressAdapter().setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'quire queues' } },
  });
  const policy: RequestHandler = (_req, res, next) => {
    res.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    next();
  };
  return [policy, serverAdapter.getRouter() as RequestHandler];
}

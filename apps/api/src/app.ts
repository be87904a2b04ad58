import express from 'express';
import type { ApiContext } from './context.ts';
import { AppError } from './errors.ts';
import { requireAdminToken } from './middleware/admin-auth.ts';
import { authenticate, requireKey } from './middleware/authenticate.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { httpMetrics } from './middleware/http-metrics.ts';
import { recordApiCalls } from './middleware/record-api-calls.ts';
import { RateCounter, rateLimits } from './middleware/rate-limit.ts';
import { requestLog } from './middleware/request-log.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { ADMIN_QUEUES_PATH, adminQueuesHandlers } from './routes/admin-queues.ts';
import { docsAssetsRouter } from './routes/docs.ts';
import { ROUTES } from './routes/index.ts';
import { routerFor } from './routes/router.ts';

/** Builds the Express app from its dependencies; starting a server is `server.ts`'s job. */
export function createApp(ctx: ApiContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.server.trustProxy));
  app.set('query parser', 'simple');
  const document = buildOpenApiDocument(ROUTES);
  // Every endpoint, /api and the rest, from its one declaration (routes/index.ts), found once per request.
  const router = routerFor(ctx, ROUTES, document);

  app.use(router.match);
  app.use(httpMetrics(ctx.metrics));
  app.use(recordApiCalls(ctx.apiCalls));
  app.use(
    requestLog(ctx.logger, {
      ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics',
    }),
  );
  app.use((req, _res, next) => ctx.requestScope.run({ requestId: req.id }, next));

  app.use(docsAssetsRouter());
  if (ctx.config.server.adminToken) {
    app.use(
      ADMIN_QUEUES_PATH,
      requireAdminToken(ctx.config.server.adminToken),
      ...adminQueuesHandlers([...ctx.queue.lanes(), ctx.webhooksQueue]),
    );
  }

  const json = express.json({ limit: ctx.config.limits.jsonBodyMaxBytes, strict: true });
  const { config } = ctx;
  const limits = rateLimits(new RateCounter(ctx.redis, ctx.logger), config.redis.queuePrefix, {
    perIp: config.limits.ratePerIp,
    perKey: config.limits.ratePerKey,
  });
  app.use('/api', limits.gate, authenticate(ctx.db, ctx.keys), limits.count, requireKey, json);
  // Signed URLs need no key, but their requests are the address's like any other.
  app.use('/storage', limits.gate, limits.count);
  app.use(router.dispatch);

  app.use((req, _res, next) => next(new AppError(404, 'NOT_FOUND', `Cannot ${req.method} ${req.path}`)));
  app.use(errorHandler());
  return app;
}

/** TRUST_PROXY: "false", "true", a hop count, or a comma-separated list of addresses/subnets. */
function trustProxySetting(value: string): boolean | number | string {
  if (value === 'false' || value === '') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

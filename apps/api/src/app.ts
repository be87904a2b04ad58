import { randomUUID } from 'node:crypto';
import express from 'express';
import { pinoHttp } from 'pino-http';
import { metricsHandler } from '@quire/metrics';
import type { LocalStore } from '@quire/storage';
import type { ApiContext } from './context.ts';
import { AppError } from './errors.ts';
import { requireAdminToken } from './middleware/admin-auth.ts';
import { authenticate } from './middleware/authenticate.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { httpMetrics } from './middleware/http-metrics.ts';
import { ipRateLimit, keyRateLimit } from './middleware/rate-limit.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { documentedRouteMatcher } from './openapi/path-matcher.ts';
import { ADMIN_QUEUES_PATH, adminQueuesHandlers } from './routes/admin-queues.ts';
import { docsRouter } from './routes/docs.ts';
import { foldersRouter } from './routes/folders.ts';
import { groupAnalyticsRouter } from './routes/group-analytics.ts';
import { healthRouter } from './routes/health.ts';
import { materialsRouter } from './routes/materials.ts';
import { storageUrlsRouter } from './routes/storage-urls.ts';
import { usageEventsRouter } from './routes/usage-events.ts';
import { usageSummaryRouter } from './routes/usage-summary.ts';

/** Builds the Express app from its dependencies; starting a server is `server.ts`'s job. */
export function createApp(ctx: ApiContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  const document = buildOpenApiDocument();

  app.use(httpMetrics(ctx.metrics, documentedRouteMatcher(document)));
  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // Whatever a handler logs through req.log carries the request id, not the whole request again.
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'requestId' },
      redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
    }),
  );
  app.use((req, _res, next) => ctx.requestScope.run({ requestId: String(req.id) }, next));

  app.use(healthRouter(ctx));
  app.use(docsRouter(document));
  app.get('/metrics', metricsHandler(ctx.metrics.registry, ctx.config.METRICS_TOKEN));
  if (ctx.config.ADMIN_TOKEN) {
    app.use(ADMIN_QUEUES_PATH, requireAdminToken(ctx.config.ADMIN_TOKEN), ...adminQueuesHandlers([ctx.queue, ctx.webhooksQueue]));
  }
  if (ctx.store.driver === 'local') {
    app.use('/storage', storageUrlsRouter(ctx, ctx.store as LocalStore, ctx.config.UPLOAD_MAX_BYTES));
  }

  const json = express.json({ limit: ctx.config.JSON_BODY_MAX_BYTES, strict: true });
  const { redis, config } = ctx;
  app.use(
    '/api',
    ipRateLimit(redis, ctx.logger, config.QUEUE_PREFIX, config.RATE_LIMIT_PER_IP),
    authenticate(ctx.db),
    keyRateLimit(redis, ctx.logger, config.QUEUE_PREFIX, config.RATE_LIMIT_PER_KEY),
    json,
  );
  app.use('/api/v1/materials', materialsRouter(ctx));
  app.use('/api/v1/usage', usageEventsRouter(ctx));
  app.use('/api/v1/usage', usageSummaryRouter(ctx));
  app.use('/api/groups', groupAnalyticsRouter(ctx));
  app.use('/api/v1/folders', foldersRouter(ctx));

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

import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServiceConfig } from '@quire/config';
import { listenForAuthChanges } from '@quire/db';
import { createInfra, type Infra, type InfraOverrides } from '@quire/infra';
import { createRedis, CompletionWaiter } from '@quire/queue';
import type { SignUrl } from '@quire/material';
import { KeyCache } from './auth/key-cache.ts';
import { createApiMetrics, type ApiMetrics } from './metrics.ts';
import { ApiCallRecorder, apiCallTable } from './usage/api-call-recorder.ts';
import { ListingCounts } from './views/listing-counts.ts';
import type { MaterialJson } from './views/material-json.ts';
import { materialJsonFor, urlSigner } from './views/material-view.ts';

export interface ApiContext extends Infra {
  /** Signs the GET URLs responses carry (content.s3Url, images), valid DOWNLOAD_URL_TTL_SECONDS. */
  signUrl: SignUrl;
  /** Materials' JSON as lists and `GET /{id}` answer it, kept per row version. */
  materialJson: MaterialJson;
  /** The webhooks queue is here for the queue dashboard and the queue-depth metric; the worker is what fills it. */
  waiter: CompletionWaiter;
  metrics: ApiMetrics;
  /** Name-search counts, kept while the organization's listing does not change. */
  listingCounts: ListingCounts;
  /** This process's copy of API keys, kept honest by the auth-change subscription. */
  keys: KeyCache;
  /** The request being served, for whatever logs on its behalf through `logger` (see app.ts). */
  requestScope: AsyncLocalStorage<{ requestId: string }>;
  /** This process's `api_call` usage events, written in batches (API_CALL_EVENTS). */
  apiCalls: ApiCallRecorder;
  /** Aborted when the server starts shutting down: long-lived responses (event streams) end then. */
  shutdown: AbortController;
}

/** Builds the api's dependencies once and passes them explicitly; tests override pieces. */
export async function createApiContext(config: ServiceConfig, overrides: InfraOverrides = {}): Promise<ApiContext> {
  const requestScope = new AsyncLocalStorage<{ requestId: string }>();
  const infra = await createInfra(
    config,
    {
      name: 'api',
      redisRole: 'producer',
      redisReadyWaitMs: 5_000,
      logRedisErrors: true,
      // Services log through ctx.logger; inside a request their lines carry its id (req.log binds it already).
      logMixin: (_object, _level, from) =>
        from.bindings().requestId === undefined ? (requestScope.getStore() ?? {}) : {},
    },
    overrides,
  );
  const { logger, store, queue, webhooksQueue } = infra;
  const redisError = (name: string) => (err: Error) =>
    logger.debug({ err: err.message }, `${name}: redis connection error`);
  const eventsRedis = createRedis(config.redis.url, 'worker');
  eventsRedis.on('error', redisError('queue events'));
  const waiter = new CompletionWaiter(eventsRedis, config.redis.queuePrefix, redisError('completion waiter'));
  const metrics = createApiMetrics(queue, webhooksQueue, { topOrganizations: config.fairShare.metricsOrganizations });
  const keys = new KeyCache(
    { ttlMs: config.auth.keyCacheTtlMs, maxEntries: config.auth.keyCacheMaxEntries },
    (source) => metrics.keyLookups.inc({ source }),
  );
  let subscribedOnce = false;
  const authChanges = listenForAuthChanges(
    config.database.url,
    {
      onChange: (change) => keys.changed(change),
      onListening: () => {
        keys.subscribed();
        metrics.keyRevocationsHeard.set(1);
        if (subscribedOnce) logger.info('listening for key revocations again; cached keys are used again');
        subscribedOnce = true;
      },
      onLost: (err) => {
        keys.unsubscribed();
        metrics.keyRevocationsHeard.set(0);
        logger.warn(
          { err: err.message },
          'stopped hearing key revocations: every key is looked up in Postgres until resubscribed',
        );
      },
    },
    { heartbeatMs: config.auth.listenHeartbeatMs },
  );
  const { downloadUrlTtlSeconds, downloadUrlReuseSeconds } = config.limits;
  const apiCalls = new ApiCallRecorder(
    apiCallTable(infra.db),
    config.apiCalls,
    logger.child({ subsystem: 'api-calls' }),
  );
  return {
    ...infra,
    signUrl: urlSigner(store, downloadUrlTtlSeconds, downloadUrlReuseSeconds),
    materialJson: materialJsonFor(
      store,
      downloadUrlTtlSeconds,
      downloadUrlReuseSeconds,
      config.limits.materialJsonCacheMb * 1024 * 1024,
    ),
    waiter,
    metrics,
    keys,
    listingCounts: new ListingCounts(config.limits.listCountCacheEntries),
    requestScope,
    shutdown: new AbortController(),
    apiCalls,
    async close() {
      await apiCalls.close();
      await authChanges.close();
      await waiter.close().catch((err) => logger.warn({ err }, 'completion waiter did not close cleanly'));
      eventsRedis.disconnect();
      await infra.close();
    },
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { createLogger, type ServiceConfig } from '@quire/config';
import { createDb, listenForAuthChanges, type Db } from '@quire/db';
import {
  CompletionWaiter,
  createMaterialsQueue,
  createRedis,
  createWebhooksQueue,
  type MaterialsQueue,
  type WebhooksQueue,
} from '@quire/queue';
import type { SignUrl } from '@quire/material';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import type { Redis } from 'ioredis';
import type { DestinationStream, Logger } from 'pino';
import { KeyCache } from './auth/key-cache.ts';
import { createApiMetrics, type ApiMetrics } from './metrics.ts';
import { ListingCounts } from './services/listing-counts.ts';
import type { MaterialJson } from './services/material-json.ts';
import { materialJsonFor, urlSigner } from './services/material-view.ts';

export interface ApiContext {
  config: ServiceConfig;
  db: Db;
  store: ObjectStore;
  /** Signs the GET URLs responses carry (content.s3Url, images), valid DOWNLOAD_URL_TTL_SECONDS. */
  signUrl: SignUrl;
  /** Materials' JSON as lists and `GET /{id}` answer it, kept per row version. */
  materialJson: MaterialJson;
  queue: MaterialsQueue;
  /** For the queue dashboard and the queue-depth metric; the worker is what fills it. */
  webhooksQueue: WebhooksQueue;
  waiter: CompletionWaiter;
  metrics: ApiMetrics;
  /** Name-search counts, kept while the organization's listing does not change. */
  listingCounts: ListingCounts;
  /** This process's copy of API keys, kept honest by the auth-change subscription. */
  keys: KeyCache;
  redis: Redis;
  logger: Logger;
  /** The request being served, for whatever logs on its behalf through `logger` (see app.ts). */
  requestScope: AsyncLocalStorage<{ requestId: string }>;
  /** Aborted when the server starts shutting down: long-lived responses (event streams) end then. */
  shutdown: AbortController;
  close(): Promise<void>;
}

/** Builds the api's dependencies once and passes them explicitly; tests override pieces. */
export async function createApiContext(
  config: ServiceConfig,
  overrides: Partial<Pick<ApiContext, 'db' | 'store'>> & { logDestination?: DestinationStream } = {},
): Promise<ApiContext> {
  const requestScope = new AsyncLocalStorage<{ requestId: string }>();
  const logger = createLogger(config, 'api', {
    destination: overrides.logDestination,
    // Services log through ctx.logger; inside a request their lines carry its id (req.log binds it already).
    mixin: (_object, _level, from) => (from.bindings().requestId === undefined ? (requestScope.getStore() ?? {}) : {}),
  });
  const db =
    overrides.db ??
    createDb(config.database.url, {
      poolSize: config.database.poolSize,
      onIdleError: (err) => logger.warn({ err }, 'postgres: an idle connection failed; the next query reconnects'),
    });
  const store = overrides.store ?? (await createObjectStore(config));
  const redis = createRedis(config.redis.url, 'producer', { commandTimeout: config.redis.commandTimeoutMs });
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  // Best effort: with Redis up, the app is built on a ready connection; with Redis down, the api still
  // starts and answers what needs Redis with 503 until it is back.
  if (redis.status !== 'ready') {
    await Promise.race([
      new Promise((resolve) => redis.once('ready', resolve)),
      new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
    ]);
  }
  const queue = createMaterialsQueue(redis, { prefix: config.redis.queuePrefix, attempts: config.worker.jobAttempts });
  // Connection errors repeat while Redis is down; requests that need it answer 503 and say so at their level.
  const redisError = (name: string) => (err: Error) =>
    logger.debug({ err: err.message }, `${name}: redis connection error`);
  queue.on('error', redisError('materials queue'));
  const webhooksQueue = createWebhooksQueue(redis, {
    prefix: config.redis.queuePrefix,
    attempts: config.webhooks.attempts,
    backoffMs: config.webhooks.backoffMs,
  });
  webhooksQueue.on('error', redisError('webhooks queue'));
  const eventsRedis = createRedis(config.redis.url, 'worker');
  eventsRedis.on('error', redisError('queue events'));
  const waiter = new CompletionWaiter(eventsRedis, config.redis.queuePrefix, redisError('completion waiter'));
  const metrics = createApiMetrics([queue, webhooksQueue]);
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
  return {
    config,
    db,
    store,
    signUrl: urlSigner(store, config.limits.downloadUrlTtlSeconds, config.limits.downloadUrlReuseSeconds),
    materialJson: materialJsonFor(
      store,
      config.limits.downloadUrlTtlSeconds,
      config.limits.downloadUrlReuseSeconds,
      config.limits.materialJsonCacheMb * 1024 * 1024,
    ),
    queue,
    webhooksQueue,
    waiter,
    metrics,
    keys,
    listingCounts: new ListingCounts(config.limits.listCountCacheEntries),
    redis,
    logger,
    requestScope,
    shutdown: new AbortController(),
    async close() {
      const closing = (name: string) => (err: unknown) => logger.warn({ err }, `${name} did not close cleanly`);
      await authChanges.close();
      await waiter.close().catch(closing('completion waiter'));
      await queue.close().catch(closing('materials queue'));
      await webhooksQueue.close().catch(closing('webhooks queue'));
      redis.disconnect();
      eventsRedis.disconnect();
      if (!overrides.db) await db.destroy();
    },
  };
}

import { createLogger, type LoggerOptions, type ServiceConfig } from '@quire/config';
import { createDb, type Db } from '@quire/db';
import {
  createMaterialsQueue,
  createRedis,
  createWebhooksQueue,
  type MaterialsQueue,
  type WebhooksQueue,
} from '@quire/queue';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import type { Redis } from 'ioredis';
import type { DestinationStream, Logger } from 'pino';

/** What both apps' processes stand on: one of each, built once by `createInfra`. */
export interface Infra {
  config: ServiceConfig;
  db: Db;
  store: ObjectStore;
  redis: Redis;
  queue: MaterialsQueue;
  webhooksQueue: WebhooksQueue;
  logger: Logger;
  /** Closes the queues and Redis, and the database unless the caller passed its own. */
  close(): Promise<void>;
}

export interface InfraOptions {
  /** The logger's name: `api` or `worker`. */
  name: string;
  /**
   * `producer` fails an enqueue fast while Redis is down (a request answers 503); `worker` waits for Redis,
   * as BullMQ workers must.
   */
  redisRole: 'producer' | 'worker';
  logMixin?: LoggerOptions['mixin'];
  /**
   * Logs connection errors of Redis and the queues at debug level: they repeat while Redis is down, and what
   * needs Redis says so at its own level. Without it they are not listened for.
   */
  logRedisErrors?: boolean;
  /**
   * Waits up to this long for Redis before building the queues. Best effort: with Redis up, the process is
   * built on a ready connection; with Redis down, it still starts and answers what needs Redis with 503.
   */
  redisReadyWaitMs?: number;
}

/** Tests pass their own database or store, and read the log lines. */
export type InfraOverrides = Partial<Pick<Infra, 'db' | 'store'>> & { logDestination?: DestinationStream };

export async function createInfra(
  config: ServiceConfig,
  options: InfraOptions,
  overrides: InfraOverrides = {},
): Promise<Infra> {
  const logger = createLogger(config, options.name, {
    destination: overrides.logDestination,
    ...(options.logMixin ? { mixin: options.logMixin } : {}),
  });
  const db =
    overrides.db ??
    createDb(config.database.url, {
      poolSize: config.database.poolSize,
      onIdleError: (err) => logger.warn({ err }, 'postgres: an idle connection failed; the next query reconnects'),
    });
  const store = overrides.store ?? (await createObjectStore(config));
  const redisError = (source: string) => (err: Error) =>
    logger.debug({ err: err.message }, `${source}redis connection error`);
  const listen = options.logRedisErrors === true;
  // A producer's command that gets no answer (a partition) fails after the timeout, so a request answers 503.
  const redis = createRedis(
    config.redis.url,
    options.redisRole,
    options.redisRole === 'producer' ? { commandTimeout: config.redis.commandTimeoutMs } : {},
  );
  if (listen) redis.on('error', redisError(''));
  if (options.redisReadyWaitMs !== undefined && redis.status !== 'ready') {
    await Promise.race([
      new Promise((resolve) => redis.once('ready', resolve)),
      new Promise((resolve) => setTimeout(resolve, options.redisReadyWaitMs).unref()),
    ]);
  }
  const queue = createMaterialsQueue(redis, {
    prefix: config.redis.queuePrefix,
    attempts: config.worker.jobAttempts,
    fairShare: { weights: config.fairShare.weights },
  });
  if (listen) queue.on('error', redisError('materials queue: '));
  const webhooksQueue = createWebhooksQueue(redis, {
    prefix: config.redis.queuePrefix,
    attempts: config.webhooks.attempts,
    backoffMs: config.webhooks.backoffMs,
  });
  if (listen) webhooksQueue.on('error', redisError('webhooks queue: '));
  return {
    config,
    db,
    store,
    redis,
    queue,
    webhooksQueue,
    logger,
    async close() {
      const closing = (name: string) => (err: unknown) => logger.warn({ err }, `${name} did not close cleanly`);
      await queue.close().catch(closing('materials queue'));
      await webhooksQueue.close().catch(closing('webhooks queue'));
      redis.disconnect();
      if (!overrides.db) await db.destroy();
    },
  };
}

import { createLogger, type Config } from '@quire/config';
import { createDb, type Db } from '@quire/db';
import { createMaterialsQueue, createRedis, createWebhooksQueue, type MaterialsQueue, type WebhooksQueue } from '@quire/queue';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import type { DestinationStream, Logger } from 'pino';
import type { Redis } from 'ioredis';
import { createWorkerMetrics, type WorkerMetrics } from './metrics.ts';

export interface WorkerContext {
  config: Config;
  db: Db;
  store: ObjectStore;
  redis: Redis;
  queue: MaterialsQueue;
  webhooksQueue: WebhooksQueue;
  metrics: WorkerMetrics;
  logger: Logger;
  close(): Promise<void>;
}

/** Builds everything a worker process uses once; tests pass their own pieces through `overrides`. */
export async function createWorkerContext(
  config: Config,
  overrides: Partial<Pick<WorkerContext, 'db' | 'store'>> & { logDestination?: DestinationStream } = {},
): Promise<WorkerContext> {
  if (!config.DATABASE_URL || !config.REDIS_URL) throw new Error('DATABASE_URL and REDIS_URL are required');
  const logger = createLogger(config, 'worker', { destination: overrides.logDestination });
  const db =
    overrides.db ??
    createDb(config.DATABASE_URL, {
      poolSize: config.DATABASE_POOL_SIZE,
      onIdleError: (err) => logger.warn({ err }, 'postgres: an idle connection failed; the next query reconnects'),
    });
  const store = overrides.store ?? (await createObjectStore(config));
  const redis = createRedis(config.REDIS_URL, 'worker');
  const queue = createMaterialsQueue(redis, { prefix: config.QUEUE_PREFIX, attempts: config.JOB_ATTEMPTS });
  const webhooksQueue = createWebhooksQueue(redis, {
    prefix: config.QUEUE_PREFIX,
    attempts: config.WEBHOOK_ATTEMPTS,
    backoffMs: config.WEBHOOK_BACKOFF_MS,
  });
  return {
    config,
    db,
    store,
    redis,
    queue,
    webhooksQueue,
    metrics: createWorkerMetrics(),
    logger,
    async close() {
      await queue.close();
      await webhooksQueue.close();
      redis.disconnect();
      if (!overrides.db) await db.destroy();
    },
  };
}

import { createLogger, type ServiceConfig } from '@quire/config';
import { createDb, type Db } from '@quire/db';
import {
  createMaterialsQueue,
  createRedis,
  createWebhooksQueue,
  type MaterialsQueue,
  type WebhooksQueue,
} from '@quire/queue';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import type { DestinationStream, Logger } from 'pino';
import type { Redis } from 'ioredis';
import { createWorkerMetrics, type WorkerMetrics } from './metrics.ts';

export interface WorkerContext {
  config: ServiceConfig;
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
  config: ServiceConfig,
  overrides: Partial<Pick<WorkerContext, 'db' | 'store'>> & { logDestination?: DestinationStream } = {},
): Promise<WorkerContext> {
  const logger = createLogger(config, 'worker', { destination: overrides.logDestination });
  const db =
    overrides.db ??
    createDb(config.database.url, {
      poolSize: config.database.poolSize,
      onIdleError: (err) => logger.warn({ err }, 'postgres: an idle connection failed; the next query reconnects'),
    });
  const store = overrides.store ?? (await createObjectStore(config));
  const redis = createRedis(config.redis.url, 'worker');
  const queue = createMaterialsQueue(redis, {
    prefix: config.redis.queuePrefix,
    attempts: config.worker.jobAttempts,
    fairShare: { weights: config.fairShare.weights },
  });
  const webhooksQueue = createWebhooksQueue(redis, {
    prefix: config.redis.queuePrefix,
    attempts: config.webhooks.attempts,
    backoffMs: config.webhooks.backoffMs,
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

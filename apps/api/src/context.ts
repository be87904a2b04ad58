import type { Config } from '@quire/config';
import { createDb, type Db } from '@quire/db';
import { CompletionWaiter, createMaterialsQueue, createRedis, type MaterialsQueue } from '@quire/queue';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';

export interface ApiContext {
  config: Config;
  db: Db;
  store: ObjectStore;
  queue: MaterialsQueue;
  waiter: CompletionWaiter;
  redis: Redis;
  logger: Logger;
  close(): Promise<void>;
}

/** Builds the api's dependencies once and passes them explicitly; tests override pieces. */
export async function createApiContext(
  config: Config,
  overrides: Partial<Pick<ApiContext, 'db' | 'store' | 'logger'>> = {},
): Promise<ApiContext> {
  if (!config.DATABASE_URL || !config.REDIS_URL) throw new Error('DATABASE_URL and REDIS_URL are required');
  const logger = overrides.logger ?? pino({ name: 'api', level: config.LOG_LEVEL });
  const db = overrides.db ?? createDb(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  const store = overrides.store ?? (await createObjectStore(config));
  const redis = createRedis(config.REDIS_URL, 'producer');
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  // Best effort: with Redis up, the app is built on a ready connection; with Redis down, the api still
  // starts and answers what needs Redis with 503 until it is back.
  if (redis.status !== 'ready') {
    await Promise.race([new Promise((resolve) => redis.once('ready', resolve)), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }
  const queue = createMaterialsQueue(redis, { prefix: config.QUEUE_PREFIX, attempts: config.JOB_ATTEMPTS });
  queue.on('error', () => {});
  const eventsRedis = createRedis(config.REDIS_URL, 'worker');
  eventsRedis.on('error', () => {});
  const waiter = new CompletionWaiter(eventsRedis, config.QUEUE_PREFIX);
  return {
    config,
    db,
    store,
    queue,
    waiter,
    redis,
    logger,
    async close() {
      await waiter.close().catch(() => {});
      await queue.close().catch(() => {});
      redis.disconnect();
      eventsRedis.disconnect();
      if (!overrides.db) await db.destroy();
    },
  };
}

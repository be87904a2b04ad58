import { Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ needs `maxRetriesPerRequest: null` for workers and blocking connections; producers use a small
 * retry count so that enqueueing while Redis is down fails fast instead of hanging a request.
 */
export function createRedis(url: string, role: 'worker' | 'producer', extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    connectTimeout: 5_000,
    ...extra,
  });
}

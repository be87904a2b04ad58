import type { Request } from 'express';
import { ipKeyGenerator, rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.ts';

const WINDOW_MS = 60_000;

/**
 * rate-limit-redis loads its Lua script once, when the app is built. Had Redis not answered at that moment,
 * the load would stay failed and every request would pass uncounted for the life of the process; this store
 * loads the script again after a failure instead.
 */
export class ReloadingRedisStore extends RedisStore {
  override async increment(key: string) {
    try {
      return await super.increment(key);
    } catch (err) {
      this.incrementScriptSha = this.loadIncrementScript();
      this.incrementScriptSha.catch(() => {});
      throw err;
    }
  }
}

function limiter(redis: Redis, prefix: string, limit: number, key: (req: Request) => string): RateLimitRequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // Counters live in Redis so every api process shares them.
    store: new ReloadingRedisStore({
      prefix,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
    keyGenerator: key,
    // Redis down must not take the API down with it: requests pass uncounted until it is back.
    passOnStoreError: true,
    handler: (_req, _res, next) => next(new AppError(429, 'RATE_LIMITED', 'Too many requests; slow down and retry after the time in the RateLimit header')),
  });
}

/** Before authentication: bounds what one address can cost, including floods of bad keys. */
export const ipRateLimit = (redis: Redis, queuePrefix: string, limit: number) =>
  limiter(redis, `${queuePrefix}:rl:ip:`, limit, (req) => ipKeyGenerator(req.ip ?? 'unknown'));

/** After authentication: one key's share, whatever addresses it comes from. */
export const keyRateLimit = (redis: Redis, queuePrefix: string, limit: number) =>
  limiter(redis, `${queuePrefix}:rl:key:`, limit, (req) => req.principal?.keyId ?? 'anonymous');

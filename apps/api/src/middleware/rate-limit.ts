import type { Request } from 'express';
import {
  ipKeyGenerator,
  MemoryStore,
  rateLimit,
  type Options,
  type RateLimitRequestHandler,
  type Store,
} from 'express-rate-limit';
import type { Logger } from 'pino';
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
      // Not dropped: the next increment awaits this promise and fails with its error, which the caller logs.
      this.incrementScriptSha.catch(() => {});
      throw err;
    }
  }
}

/**
 * Counts in Redis, shared by every api process; while Redis does not answer, counts in this process instead
 * (the same limit, per process), so the limit is never simply off. Counting returns to Redis as soon as it
 * answers again; hits counted locally meanwhile are not carried over.
 */
export class FallbackStore implements Store {
  readonly localKeys = false;
  private readonly local = new MemoryStore();
  private onFallback = false;

  constructor(
    private readonly shared: Store,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
    readonly prefix: string,
  ) {}

  init(options: Options) {
    this.local.init(options);
    Promise.resolve(this.shared.init?.(options)).catch((err) =>
      this.logger.warn(
        { err, prefix: this.prefix },
        'the Redis rate-limit store did not start; counting in this process until Redis answers',
      ),
    );
  }

  async increment(key: string) {
    try {
      // Once more on failure: the first call after Redis returns only reloads the store's script.
      const counted = await Promise.resolve(this.shared.increment(key)).catch(() => this.shared.increment(key));
      if (this.onFallback) this.logger.info({ prefix: this.prefix }, 'rate limiting counts in Redis again');
      this.onFallback = false;
      return counted;
    } catch (err) {
      if (!this.onFallback)
        this.logger.warn(
          { err, prefix: this.prefix },
          'Redis is unavailable: rate limiting counts in this process until it is back',
        );
      this.onFallback = true;
      return this.local.increment(key);
    }
  }

  async decrement(key: string) {
    await (this.onFallback
      ? this.local.decrement(key)
      : Promise.resolve(this.shared.decrement(key)).catch(() => this.local.decrement(key)));
  }

  async resetKey(key: string) {
    await this.local.resetKey(key);
    await Promise.resolve(this.shared.resetKey(key)).catch((err) =>
      this.logger.warn({ err }, 'could not reset a rate-limit key in Redis'),
    );
  }

  shutdown() {
    this.local.shutdown();
  }
}

function limiter(
  redis: Redis,
  logger: Logger,
  prefix: string,
  limit: number,
  key: (req: Request) => string,
): RateLimitRequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // Counters live in Redis so every api process shares them; Redis down must not take the API down with it,
    // nor switch the limit off, so each process counts on its own until it is back.
    store: new FallbackStore(
      new ReloadingRedisStore({
        prefix,
        sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
      }),
      logger,
      prefix,
    ),
    keyGenerator: key,
    handler: (_req, _res, next) =>
      next(
        new AppError(
          429,
          'RATE_LIMITED',
          'Too many requests; slow down and retry after the time in the RateLimit header',
        ),
      ),
  });
}

/** Before authentication: bounds what one address can cost, including floods of bad keys. */
export const ipRateLimit = (redis: Redis, logger: Logger, queuePrefix: string, limit: number) =>
  limiter(redis, logger, `${queuePrefix}:rl:ip:`, limit, (req) => ipKeyGenerator(req.ip ?? 'unknown'));

/** After authentication: one key's share, whatever addresses it comes from. */
export const keyRateLimit = (redis: Redis, logger: Logger, queuePrefix: string, limit: number) =>
  limiter(redis, logger, `${queuePrefix}:rl:key:`, limit, (req) => req.principal?.keyId ?? 'anonymous');

import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';

const WINDOW_MS = 60_000;

/**
 * One fixed window per key: the first hit starts it (PEXPIRE), every hit counts (INCR). Several keys in one
 * call, so the address's and the key's counters cost one round trip together. A key found without expiry
 * (written by something else) gets one, so no counter lives forever.
 */
const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  out[2 * i - 1] = hits
  out[2 * i] = ttl
end
return out`;

interface Hit {
  hits: number;
  /** Milliseconds until the counter's window ends. */
  resetMs: number;
  /** Counted in Redis (false: in this process, while Redis does not answer). */
  shared: boolean;
}

type RedisWithHit = Redis & { quireRateHit(numKeys: number, ...args: (string | number)[]): Promise<number[]> };

/**
 * Counts hits in Redis, shared by every api process, in one round trip for any number of counters (ioredis
 * sends the script by hash and loads it again by itself after a Redis restart). While Redis does not answer,
 * counts in this process instead (the same limits, per process), so the limits are never simply off; counting
 * returns to Redis as soon as it answers, and hits counted locally meanwhile are not carried over.
 */
export class RateCounter {
  private readonly redis: RedisWithHit;
  private readonly local = new LRUCache<string, { hits: number; resetAt: number }>({ max: 100_000 });
  private onFallback = false;

  constructor(
    redis: Redis,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
  ) {
    if (!('quireRateHit' in redis)) redis.defineCommand('quireRateHit', { lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(keys: string[]): Promise<Hit[]> {
    try {
      const reply = await this.redis.quireRateHit(keys.length, ...keys, WINDOW_MS);
      if (this.onFallback) this.logger.info('rate limiting counts in Redis again');
      this.onFallback = false;
      return keys.map((_, i) => ({ hits: reply[2 * i]!, resetMs: reply[2 * i + 1]!, shared: true }));
    } catch (err) {
      if (!this.onFallback)
        this.logger.warn({ err }, 'Redis is unavailable: rate limiting counts in this process until it is back');
      this.onFallback = true;
      return keys.map((key) => this.hitLocally(key));
    }
  }

  private hitLocally(key: string): Hit {
    const now = Date.now();
    const counter = this.local.get(key);
    if (!counter || counter.resetAt <= now) {
      this.local.set(key, { hits: 1, resetAt: now + WINDOW_MS }, { ttl: WINDOW_MS });
      return { hits: 1, resetMs: WINDOW_MS, shared: false };
    }
    counter.hits++;
    return { hits: counter.hits, resetMs: counter.resetAt - now, shared: false };
  }
}

interface Limit {
  limit: number;
  /** The counter's key in Redis (also the partition key the headers hash). */
  key: string;
}

/** The draft-8 `RateLimit` and `RateLimit-Policy` headers (draft-ietf-httpapi-ratelimit-headers-08), one item per limit. */
function setHeaders(res: Response, limit: Limit, hit: Pick<Hit, 'hits' | 'resetMs'>): void {
  if (res.headersSent) return;
  const name = `${limit.limit}-in-${WINDOW_MS / 60_000}min`;
  const partition = Buffer.from(createHash('sha256').update(limit.key).digest('hex').slice(0, 12)).toString('base64');
  res.append('RateLimit', `"${name}"; r=${Math.max(limit.limit - hit.hits, 0)}; t=${Math.ceil(hit.resetMs / 1000)}`);
  res.append('RateLimit-Policy', `"${name}"; q=${limit.limit}; w=${WINDOW_MS / 1000}; pk=:${partition}:`);
}

const tooMany = (res: Response, resetMs: number) => {
  res.setHeader('Retry-After', String(Math.ceil(resetMs / 1000)));
  return new AppError(
    429,
    'RATE_LIMITED',
    'Too many requests; slow down and retry after the time in the RateLimit header',
  );
};

export interface RateLimits {
  /**
   * Before authentication: refuses an address this process has already seen refused in the current window,
   * from memory, so a flood (of bad keys, say) costs neither a key lookup nor a round trip.
   */
  gate: RequestHandler;
  /** After authentication: counts the address and, when there is one, the key, in one round trip. */
  count: RequestHandler;
}

/** Per client address (`perIp`) and per API key (`perKey`) a minute, across every api process. */
export function rateLimits(
  counter: RateCounter,
  prefix: string,
  limits: { perIp: number; perKey: number },
): RateLimits {
  // Address counter key -> when its window ends.
  const refusedAddresses = new LRUCache<string, number>({ max: 100_000 });
  const ipLimit = (req: Request): Limit => ({
    limit: limits.perIp,
    key: `${prefix}:rl:ip:${ipKeyGenerator(req.ip ?? 'unknown')}`,
  });

  return {
    gate(req, res, next) {
      const ip = ipLimit(req);
      const resetMs = (refusedAddresses.get(ip.key) ?? 0) - Date.now();
      if (resetMs <= 0) return next();
      setHeaders(res, ip, { hits: ip.limit + 1, resetMs });
      next(tooMany(res, resetMs));
    },
    async count(req: Request, res: Response, next: NextFunction) {
      try {
        const counted: Limit[] = [ipLimit(req)];
        if (req.principal) counted.push({ limit: limits.perKey, key: `${prefix}:rl:key:${req.principal.keyId}` });
        const hits = await counter.hit(counted.map((l) => l.key));
        let refusedFor = 0;
        counted.forEach((limit, i) => {
          const hit = hits[i]!;
          setHeaders(res, limit, hit);
          if (hit.hits > limit.limit) refusedFor = Math.max(refusedFor, hit.resetMs);
        });
        // Only Redis's refusal holds for every process until the window ends; a local count restarts when Redis is back.
        const ipHit = hits[0]!;
        if (ipHit.hits > limits.perIp && ipHit.shared)
          refusedAddresses.set(counted[0]!.key, Date.now() + ipHit.resetMs, { ttl: Math.max(ipHit.resetMs, 1) });
        next(refusedFor > 0 ? tooMany(res, refusedFor) : undefined);
      } catch (err) {
        next(err);
      }
    },
  };
}

import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';

const WINDOW_MS = 60_000;
/** The most hits one lease reserves, and the share of what a window has left that it may take (one eighth). */
const LEASE_MAX = 64;
const LEASE_DIVISOR = 8;

/**
 * One fixed window per key, counted in Redis by leases: a call reserves for each key the next `size` hits of its
 * window (INCRBY; the first reservation starts the window with PEXPIRE), `size` being an eighth of what the window
 * has left, at least 1 and at most LEASE_MAX. Hits are numbered across every api process, so no more than the
 * limit are ever allowed; near the limit leases are one hit, counted exactly. A key found without expiry
 * (written by something else) gets one, so no counter lives forever.
 */
const LEASE_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i + 1])
  local size = math.floor((limit - tonumber(redis.call('GET', key) or '0')) / ${LEASE_DIVISOR})
  if size > ${LEASE_MAX} then size = ${LEASE_MAX} end
  if size < 1 then size = 1 end
  local last = redis.call('INCRBY', key, size)
  if last == size then redis.call('PEXPIRE', key, ARGV[1]) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  out[3 * i - 2] = last
  out[3 * i - 1] = size
  out[3 * i] = ttl
end
return out`;

interface Hit {
  /** This hit's number in its window, counting every api process's. */
  hits: number;
  /** Milliseconds until the counter's window ends. */
  resetMs: number;
  /** Counted in Redis (false: in this process, while Redis does not answer). */
  shared: boolean;
}

/** Hit numbers this process reserved in Redis and has not used yet. */
interface Lease {
  next: number;
  last: number;
  resetAt: number;
}

const FALLBACK_RETRY_MS = 1000;

type RedisWithLease = Redis & { quireRateLease(numKeys: number, ...args: (string | number)[]): Promise<number[]> };

/**
 * Counts hits in Redis, shared by every api process, by leases (see LEASE_SCRIPT): most hits are numbered from a
 * lease this process holds and cost no round trip, and a call that needs leases takes them for every counter at
 * once (ioredis sends the script by hash and loads it again by itself after a Redis restart). Leases never let
 * more than the limit through; hits left in another process's lease when the window ends are lost, so a key
 * whose requests are spread over several processes may be refused up to an eighth of its remainder early.
 * While Redis does not answer, counts in this process instead (the same limits, per process), so the limits are
 * never simply off; counting returns to Redis as soon as it answers, and hits counted locally meanwhile are not
 * carried over. While it does not answer, one request at a time asks it again, at most once every
 * FALLBACK_RETRY_MS (or as soon as the connection is made again): over a partition each question waits the
 * command timeout, and the others should not.
 */
export class RateCounter {
  private readonly redis: RedisWithLease;
  private readonly leases = new LRUCache<string, Lease[]>({ max: 100_000 });
  private readonly local = new LRUCache<string, { hits: number; resetAt: number }>({ max: 100_000 });
  private onFallback = false;
  private askRedisAfter = 0;
  /** One request at a time asks Redis whether it is back; the others count locally meanwhile. */
  private probing = false;

  constructor(
    redis: Redis,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
  ) {
    if (!('quireRateLease' in redis)) redis.defineCommand('quireRateLease', { lua: LEASE_SCRIPT });
    this.redis = redis as RedisWithLease;
    // A connection made again means Redis answers again: no need to wait for the next probe.
    redis.on('ready', () => {
      this.askRedisAfter = 0;
    });
  }

  async hit(counters: { key: string; limit: number }[]): Promise<Hit[]> {
    const now = Date.now();
    const fromLeases = counters.map(({ key }) => this.fromLease(key, now));
    const missing = counters.filter((_, i) => fromLeases[i] === undefined);
    if (missing.length === 0) return fromLeases as Hit[];
    if (this.onFallback && (this.probing || now < this.askRedisAfter))
      return counters.map(({ key }, i) => fromLeases[i] ?? this.hitLocally(key));
    this.probing = this.onFallback;
    try {
      const reply = await this.redis.quireRateLease(
        missing.length,
        ...missing.map((c) => c.key),
        WINDOW_MS,
        ...missing.map((c) => c.limit),
      );
      if (this.onFallback) this.logger.info('rate limiting counts in Redis again');
      this.onFallback = false;
      const taken = Date.now();
      const leased = new Map(
        missing.map(({ key }, i) => {
          const [last, size, resetMs] = [reply[3 * i]!, reply[3 * i + 1]!, reply[3 * i + 2]!];
          if (size > 1) this.keep(key, { next: last - size + 2, last, resetAt: taken + resetMs });
          return [key, { hits: last - size + 1, resetMs, shared: true }];
        }),
      );
      return counters.map(({ key }, i) => fromLeases[i] ?? leased.get(key)!);
    } catch (err) {
      if (!this.onFallback)
        this.logger.warn({ err }, 'Redis is unavailable: rate limiting counts in this process until it is back');
      this.onFallback = true;
      this.askRedisAfter = Date.now() + FALLBACK_RETRY_MS;
      this.leases.clear();
      return counters.map(({ key }) => this.hitLocally(key));
    } finally {
      this.probing = false;
    }
  }

  private fromLease(key: string, now: number): Hit | undefined {
    const held = this.leases.get(key);
    if (!held) return undefined;
    while (held[0] && (held[0].next > held[0].last || held[0].resetAt <= now)) held.shift();
    const lease = held[0];
    if (!lease) {
      this.leases.delete(key);
      return undefined;
    }
    return { hits: lease.next++, resetMs: lease.resetAt - now, shared: true };
  }

  private keep(key: string, lease: Lease): void {
    this.leases.set(key, [...(this.leases.get(key) ?? []), lease]);
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

const partitions = new LRUCache<string, string>({ max: 10_000 });
/** The partition key the headers show for a counter: a digest, so the counter's key (an address) is not disclosed. */
function partitionOf(key: string): string {
  let partition = partitions.get(key);
  if (partition === undefined) {
    partition = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
    partitions.set(key, partition);
  }
  return partition;
}

/** The draft-8 `RateLimit` and `RateLimit-Policy` headers (draft-ietf-httpapi-ratelimit-headers-08), one item per limit. */
function setHeaders(res: Response, limit: Limit, hit: Pick<Hit, 'hits' | 'resetMs'>): void {
  if (res.headersSent) return;
  const name = `${limit.limit}-in-${WINDOW_MS / 60_000}min`;
  const partition = partitionOf(limit.key);
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
  /** After authentication: counts the address and, when there is one, the key (from leases, see RateCounter). */
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
        const hits = await counter.hit(counted.map(({ key, limit }) => ({ key, limit })));
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

import getPort from 'get-port';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningService } from '@quire/stack';
import { startTestStack, waitUntil } from '@quire/testkit';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

describe('rate limiting while Redis is away', () => {
  it('keeps limiting in the api process (never simply off), and counts in Redis again once it is back', async () => {
    const port = await getPort();
    let redis: RunningService = await startRedisServer({ port });
    cleanup.push(() => redis.stop());
    const stack = await startTestStack({
      worker: false,
      config: { REDIS_URL: redis.url, RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_PER_IP: '11' },
    });
    cleanup.push(() => stack.close());
    const [a, b] = [await stack.newTenant(), await stack.newTenant()];

    await redis.stop();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await a.request('/api/v1/materials')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await a.request('/api/v1/materials');
    expect(limited.headers.get('ratelimit')).toMatch(/"5-in-1min"; r=0/);
    // The per-address limit holds as well: a flood of bad keys from one address is refused.
    const bad = [];
    for (let i = 0; i < 4; i++)
      bad.push((await fetch(`${stack.url}/api/v1/materials`, { headers: { 'x-api-key': `bad-${i}` } })).status);
    expect(bad).toEqual([403, 403, 403, 429]);

    redis = await startRedisServer({ port });
    await waitUntil(
      async () => (await fetch(`${stack.url}/readyz`)).status === 200,
      30_000,
      'readiness after Redis is back',
    );
    // Counting is back in the (fresh) Redis, not in this process's exhausted counters.
    expect((await b.request('/api/v1/materials')).status).toBe(200);
    expect((await a.request('/api/v1/materials')).status).toBe(200);
    const keys = await stack.api.redis.keys(`${stack.config.redis.queuePrefix}:rl:key:*`);
    expect(keys.length).toBeGreaterThan(0);
  });
});

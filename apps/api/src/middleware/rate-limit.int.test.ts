import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startTestStack, type TestStack } from '@quire/testkit';
import { ReloadingRedisStore } from './rate-limit.ts';

const stacks: TestStack[] = [];
afterAll(() => Promise.all(stacks.map((s) => s.close())));

describe('rate limiting', () => {
  it('answers 429 with RateLimit headers once a key spends its share, leaving other keys alone', async () => {
    const stack = await startTestStack({ worker: false, config: { RATE_LIMIT_PER_KEY: '5' } });
    stacks.push(stack);
    const [a, b] = [await stack.newTenant(), await stack.newTenant()];
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await a.request('/api/v1/materials')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await a.request('/api/v1/materials');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit')).toMatch(/"5-in-1min"; r=0/);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/q=5/);
    expect(await limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect((await b.request('/api/v1/materials')).status).toBe(200);
  });

  it('limits one address before authentication, so a flood of bad keys is refused too', async () => {
    const stack = await startTestStack({ worker: false, config: { RATE_LIMIT_PER_IP: '3' } });
    stacks.push(stack);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await fetch(`${stack.url}/api/v1/materials`, { headers: { 'x-api-key': `bad-${i}` } })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 429]);
  });

  it('starts counting once Redis answers, even when it did not answer while the app was built', async () => {
    const redis = new Redis(inject('redisUrl'), {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    const store = new ReloadingRedisStore({
      prefix: `rl-test-${Date.now()}:`,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as never,
    });
    await expect(store.init({ windowMs: 60_000 } as never)).rejects.toThrow();
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    // The request that finds the script missing passes uncounted; the ones after it are counted.
    await expect(store.increment('k')).rejects.toThrow();
    expect((await store.increment('k')).totalHits).toBe(1);
    expect((await store.increment('k')).totalHits).toBe(2);
    redis.disconnect();
  });
});

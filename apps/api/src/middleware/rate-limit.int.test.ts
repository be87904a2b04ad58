import getPort from 'get-port';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnService, startTestStack, waitForOk, type ServiceProcess, type TestStack } from '@quire/testkit';

const stacks: TestStack[] = [];
const processes: ServiceProcess[] = [];
afterAll(async () => {
  for (const p of processes) {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  await Promise.all(stacks.map((s) => s.close()));
});

/** The stack's api and a second api process sharing its Postgres, Redis and settings. */
async function twoApis(config: Record<string, string>) {
  const stack = await startTestStack({ worker: false, config });
  stacks.push(stack);
  const port = await getPort();
  const url = `http://127.0.0.1:${port}`;
  const second = spawnService('api', { ...stack.env, PORT: String(port), PUBLIC_URL: url });
  processes.push(second);
  await waitForOk(`${url}/readyz`, 60_000, 'the second api');
  return { stack, urls: [stack.url, url] };
}

describe('rate limiting', () => {
  it('answers 429 with RateLimit headers once a key spends its share, leaving other keys alone', async () => {
    const stack = await startTestStack({ worker: false, config: { RATE_LIMIT_PER_KEY: '5' } });
    stacks.push(stack);
    const [a, b] = [await stack.newTenant(), await stack.newTenant()];
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await a.request('/api/v1/materials')).status);
    // Redis forgetting the counting script (a restart, SCRIPT FLUSH) loses no count.
    await stack.api.redis.script('FLUSH');
    for (let i = 0; i < 3; i++) statuses.push((await a.request('/api/v1/materials')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await a.request('/api/v1/materials');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit')).toMatch(/"5-in-1min"; r=0/);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/q=5/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect((await b.request('/api/v1/materials')).status).toBe(200);
  });

  it('limits one address before authentication, so a flood of bad keys is refused too', async () => {
    const stack = await startTestStack({ worker: false, config: { RATE_LIMIT_PER_IP: '3' } });
    stacks.push(stack);
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await fetch(`${stack.url}/api/v1/materials`, { headers: { 'x-api-key': `bad-${i}` } })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 429, 429]);
  });

  it('counts and refuses the signed storage URLs under the same address limit', async () => {
    const stack = await startTestStack({ worker: false, config: { RATE_LIMIT_PER_IP: '3' } });
    stacks.push(stack);
    const storage = `${stack.url}/storage/get?key=a/b/original&expires=1&sig=${'0'.repeat(64)}`;
    expect((await fetch(storage)).status).toBe(403);
    for (let i = 0; i < 2; i++) await fetch(`${stack.url}/api/v1/materials`, { headers: { 'x-api-key': `bad-${i}` } });
    const refused = await fetch(storage);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await fetch(`${stack.url}/storage/put?key=a/b/original&expires=1&sig=x`, { method: 'PUT' })).status).toBe(
      429,
    );
  });

  it('holds both limits across two api processes, each answering 429 with the headers of the limit spent', async () => {
    const { stack, urls } = await twoApis({ RATE_LIMIT_PER_KEY: '6', RATE_LIMIT_PER_IP: '12' });
    const [a, b] = [await stack.newTenant(), await stack.newTenant()];
    // Requests alternate between the two processes.
    const send = (i: number, key: string) =>
      fetch(`${urls[i % 2]}/api/v1/materials`, { headers: { 'x-api-key': key } });

    const byKey = [];
    for (let i = 0; i < 8; i++) byKey.push(await send(i, a.apiKey));
    expect(byKey.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    for (const refused of byKey.slice(6)) {
      expect(refused.headers.get('ratelimit')).toMatch(/"12-in-1min"; r=\d+; t=\d+, "6-in-1min"; r=0; t=\d+/);
      expect(refused.headers.get('ratelimit-policy')).toMatch(/"12-in-1min"; q=12; w=60; .*"6-in-1min"; q=6; w=60/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(byKey[5]!.headers.get('ratelimit')).toMatch(/"6-in-1min"; r=0/);

    // The address has spent 8 of its 12: another key gets 2, a bad key nothing once they are spent.
    const rest = [];
    for (let i = 0; i < 2; i++) rest.push((await send(i, b.apiKey)).status);
    for (let i = 0; i < 2; i++) rest.push((await send(i, 'bad')).status);
    const flooded = [];
    for (let i = 0; i < 4; i++) flooded.push(await send(i, i < 2 ? 'bad' : b.apiKey));
    expect([...rest, ...flooded.map((r) => r.status)]).toEqual([200, 200, 403, 403, 429, 429, 429, 429]);
    for (const refused of flooded) expect(refused.headers.get('ratelimit')).toMatch(/"12-in-1min"; r=0/);
  });

  it('lets through exactly the limit of one process, and never more than the limit of two, at larger limits', async () => {
    const { stack, urls } = await twoApis({ RATE_LIMIT_PER_KEY: '80', RATE_LIMIT_PER_IP: '100000' });
    const [one, spread] = [await stack.newTenant(), await stack.newTenant()];
    const statuses = async (key: string, processes: number) => {
      const out: number[] = [];
      for (let i = 0; i < 100; i++)
        out.push((await fetch(`${urls[i % processes]}/api/v1/materials`, { headers: { 'x-api-key': key } })).status);
      return out;
    };
    const throughOne = await statuses(one.apiKey, 1);
    expect(throughOne.slice(0, 80).every((s) => s === 200)).toBe(true);
    expect(throughOne.slice(80).every((s) => s === 429)).toBe(true);
    // Spread over two processes, hits one process reserved and did not use are lost: at most an eighth of the
    // remainder early, never one too many.
    const throughTwo = (await statuses(spread.apiKey, 2)).filter((s) => s === 200).length;
    expect(throughTwo).toBeLessThanOrEqual(80);
    expect(throughTwo).toBeGreaterThanOrEqual(70);
  });
});

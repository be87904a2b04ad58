import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMaterialJob } from '@quire/queue';
import { spawnService, startTestStack, waitForOk, waitUntil, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

describe('an api asked to stop (SIGTERM)', () => {
  it('cuts requests still running at API_SHUTDOWN_MS, exits 0 and loses no material', async () => {
    const port = await getPort();
    const url = `http://127.0.0.1:${port}`;
    const api = spawnService('api', { ...stack.env, PORT: String(port), PUBLIC_URL: url, API_SHUTDOWN_MS: '1500' });
    await waitForOk(`${url}/healthz`, 30_000, 'the api to listen');

    // No worker runs, so this request would wait a full minute for processing.
    const waiting = fetch(`${url}/api/v1/materials/upload-and-process`, {
      method: 'POST',
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'in flight', content: { text: 'hello' }, timeoutMs: 60_000 }),
    }).then(
      (r) => r.status,
      (err: Error) => err.name,
    );
    await waitUntil(
      async () => (await (await tenant.request('/api/v1/materials')).json()).totalCount === 1,
      10_000,
      'the request to arrive',
    );

    const stoppedAt = Date.now();
    api.child.kill('SIGTERM');
    const exit = await api.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(await waiting).not.toBe(201);
    // The material the cut request created is still there and still queued: nothing is lost.
    const list = await (await tenant.request('/api/v1/materials')).json();
    expect(list.materials[0]).toMatchObject({ name: 'in flight', status: 'processing' });
    const job = await findMaterialJob(stack.api.queue, list.materials[0]._id);
    expect(await job?.getState()).toBe('prioritized');
  });
});

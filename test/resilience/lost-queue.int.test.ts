import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  spawnService,
  startTestStack,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let worker: ServiceProcess | undefined;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
});
afterAll(async () => {
  if (worker && worker.child.exitCode === null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await stack?.close();
});

describe('a queue that lost its jobs', () => {
  it('loses no material: the sweeper re-enqueues what Postgres still has in processing', async () => {
    const res = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: (() => {
        const form = new FormData();
        form.append('name', 'survivor');
        form.append('file', new Blob(['words that must survive a flushed Redis']), 'survivor.txt');
        return form;
      })(),
    });
    expect(res.status).toBe(201);
    const { _id: id } = await res.json();

    // Redis loses every job (FLUSHALL, a failover without persistence); Postgres still says "processing".
    await stack.api.queue.obliterate({ force: true });
    expect(await stack.api.queue.getJob(id)).toBeUndefined();
    await stack.db
      .updateTable('materials')
      .set({ processing_started_at: new Date(Date.now() - 2 * stack.config.worker.processingStaleMs) })
      .where('id', '=', id)
      .execute();

    worker = spawnService('worker', { ...stack.env, SWEEP_INTERVAL_MS: '1000' });
    let material = { status: 'processing', metadata: {} as Record<string, unknown> };
    await waitUntil(
      async () => {
        material = await (await tenant.request(`/api/v1/materials/${id}`)).json();
        return material.status !== 'processing';
      },
      30_000,
      'the swept material to be processed',
    );
    expect(material.status).toBe('active');
    expect(material.metadata.extractedText).toBe('words that must survive a flushed Redis');
    expect(worker.output()).toContain('re-enqueued a material stuck in processing');
  });
});

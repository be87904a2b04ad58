import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  descendantsOf,
  imageHeavyPdf,
  isRunning,
  localStorageOf,
  spawnService,
  startTestStack,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    worker: false,
    config: {
      WORKER_LOCK_MS: '3000',
      WORKER_CONCURRENCY: '1',
      WORKER_SHUTDOWN_MS: '1000',
      EXTRACT_MAX_MEMORY_MB: '4096',
    },
  });
  tenant = await stack.newTenant();
});
afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await stack?.close();
});

async function startWorker(): Promise<ServiceProcess> {
  const worker = spawnService('worker', stack.env);
  workers.push(worker);
  await waitUntil(() => worker.output().includes('worker started'), 30_000, 'the worker to start');
  return worker;
}

async function stopAllWorkers() {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
}

async function uploadHeavyPdf(name: string): Promise<string> {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([await imageHeavyPdf(1)]), `${name}.pdf`);
  const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json())._id;
}

const material = async (id: string) => (await tenant.request(`/api/v1/materials/${id}`)).json();
const jobIsActive = async (id: string) => (await (await stack.api.queue.getJob(id))?.getState()) === 'active';

describe('a worker killed mid-extraction', () => {
  it('loses nothing: another worker retries the job and the material ends active exactly once', async () => {
    const first = await startWorker();
    const id = await uploadHeavyPdf('killed');
    await waitUntil(() => jobIsActive(id), 30_000, 'the first worker to take the job');
    await new Promise((r) => setTimeout(r, 1500));
    first.child.kill('SIGKILL');
    await first.exited;
    expect((await material(id)).status).toBe('processing');

    await startWorker();
    await waitUntil(
      async () => ['active', 'error'].includes((await material(id)).status),
      120_000,
      'the retry to finish',
    );
    const done = await material(id);
    expect(done.status, JSON.stringify(done.metadata.error)).toBe('active');
    expect(done.metadata.images).toHaveLength(1);

    const recorded = await stack.db
      .selectFrom('material_objects')
      .select('key')
      .where('material_id', '=', id)
      .where('kind', '=', 'derived')
      .execute();
    // The picture and the text's segments.
    expect(recorded).toHaveLength(2);
    const derivedDir = path.join(
      localStorageOf(stack).dir,
      localStorageOf(stack).keyPrefix,
      tenant.organizationId,
      id,
      'derived',
    );
    const files = (await fs.readdir(derivedDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files).toHaveLength(2);
    await stopAllWorkers();
  });
});

describe('a worker asked to stop (SIGTERM)', () => {
  it('exits within its shutdown deadline and hands the running job back', async () => {
    const worker = await startWorker();
    const id = await uploadHeavyPdf('stopped');
    await waitUntil(() => jobIsActive(id), 30_000, 'the worker to take the job');
    const asked = Date.now();
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit, worker.output().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - asked).toBeLessThan(10_000);

    await startWorker();
    await waitUntil(async () => (await material(id)).status === 'active', 120_000, 'another worker to finish the job');
  });
});

describe('the extraction children of a killed worker', () => {
  it('exit with it, and the next worker removes the job folder they left', async () => {
    await stopAllWorkers();
    const worker = await startWorker();
    const id = await uploadHeavyPdf('orphan');
    let child: { pid: number; jobDir: string } | undefined;
    // The worker's warm sandbox child, and the job folder (named after the worker) it is working in.
    await waitUntil(
      async () => {
        const found = (await descendantsOf(worker.child.pid!)).find((p) =>
          p.argv.some((arg) => arg.endsWith('child-entry.mjs')),
        );
        const folder = (await fs.readdir(os.tmpdir())).find((name) =>
          name.startsWith(`quire-job-${worker.child.pid}-`),
        );
        const jobDir = folder && path.join(os.tmpdir(), folder);
        const working =
          jobDir &&
          found &&
          (await fs.readFile(path.join(jobDir, 'sandbox.pid'), 'utf8').catch(() => '')) === String(found.pid);
        if (working) child = { pid: found.pid, jobDir };
        return child !== undefined;
      },
      60_000,
      'an extraction child at work',
    );
    expect(await fs.readdir(child!.jobDir)).toContain('input');

    worker.child.kill('SIGKILL');
    await worker.exited;
    await waitUntil(async () => !(await isRunning(child!.pid)), 5_000, `the orphaned child ${child!.pid} to exit`);

    await startWorker();
    expect(
      await fs.access(child!.jobDir).then(
        () => 'left',
        () => 'removed',
      ),
    ).toBe('removed');
    // The job itself is not lost: its lock expires and the new worker finishes it.
    await waitUntil(async () => (await material(id)).status === 'active', 120_000, 'the retry');
    await stopAllWorkers();
  });
});

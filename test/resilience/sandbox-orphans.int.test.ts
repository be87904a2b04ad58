import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageHeavyPdf, spawnService, startTestStack, waitUntil, type ServiceProcess, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  stack = await startTestStack({ worker: false, config: { WORKER_LOCK_MS: '3000', WORKER_CONCURRENCY: '1', EXTRACT_MAX_MEMORY_MB: '4096' } });
  tenant = await stack.newTenant();
});
afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await stack?.close();
});

async function startWorker(): Promise<ServiceProcess> {
  const worker = spawnService('worker', stack.env);
  workers.push(worker);
  await waitUntil(() => worker.output().includes('worker started'), 30_000, 'the worker to start');
  return worker;
}

/** The extraction children of a process, from /proc: their pid and the job folder their spec lies in. */
async function sandboxChildren(parentPid: number): Promise<{ pid: number; jobDir: string }[]> {
  const found = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== parentPid) continue;
    const argv = (await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const spec = argv.find((arg) => arg.endsWith('spec.json'));
    if (argv.some((arg) => arg.endsWith('child-entry.mjs')) && spec) found.push({ pid: Number(entry), jobDir: path.dirname(spec) });
  }
  return found;
}

/** Gone, or a zombie waiting to be reaped (it runs no more). */
async function isGone(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat === '' || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

describe('the extraction children of a killed worker', () => {
  it('exit with it, and the next worker removes the job folder they left', async () => {
    const worker = await startWorker();
    const form = new FormData();
    form.append('name', 'orphan');
    form.append('file', new Blob([await imageHeavyPdf(2)]), 'orphan.pdf');
    const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const id = (await res.json())._id;

    let children: { pid: number; jobDir: string }[] = [];
    await waitUntil(async () => (children = await sandboxChildren(worker.child.pid!)).length > 0, 60_000, 'an extraction child');
    const [child] = children;
    expect(await fs.readdir(child!.jobDir)).toContain('input');

    worker.child.kill('SIGKILL');
    await worker.exited;
    await waitUntil(() => isGone(child!.pid), 5_000, `the orphaned child ${child!.pid} to exit`);

    await startWorker();
    expect(await fs.access(child!.jobDir).then(() => 'left', () => 'removed')).toBe('removed');
    // The job itself is not lost: its lock expires and the new worker finishes it.
    await waitUntil(async () => (await (await tenant.request(`/api/v1/materials/${id}`)).json()).status === 'active', 120_000, 'the retry');
  });
});

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { descendantsOf, imageHeavyPdf, isRunning, waitUntil } from '@quire/testkit';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

interface Quire {
  child: ChildProcess;
  port: number;
  dataDir: string;
  output(): string;
  exited: Promise<number | null>;
}

/** What `npm start` runs as its worker: the compiled build, with plain node. */
const COMPILED_WORKER = path.join(path.resolve(import.meta.dirname, '../..'), 'dist', 'worker.js');

/** `npm start` as a user runs it, in a data directory of its own. */
async function npmStart(extra: Record<string, string>, options: { embedded: boolean }): Promise<Quire> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-supervised-'));
  await fs.chmod(dataDir, 0o777);
  cleanup.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const port = await getPort();
  const env = {
    ...process.env,
    QUIRE_DATA_DIR: dataDir,
    PORT: String(port),
    WORKER_METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  } as NodeJS.ProcessEnv;
  for (const name of ['S3_ENDPOINT', 'STORAGE_SIGNING_SECRET', 'PUBLIC_URL', 'NODE_OPTIONS']) delete env[name];
  if (options.embedded) {
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
  } else {
    Object.assign(env, {
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: inject('redisUrl'),
      QUEUE_PREFIX: `sv${port}`,
    });
  }
  const child = spawn('npm', ['start', '--silent'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanup.push(async () => {
    for (const pid of await descendants(child.pid!)) process.kill(pid, 'SIGKILL');
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, port, dataDir, output: () => output, exited };
}

async function keyOf(quire: Quire): Promise<string> {
  await waitUntil(
    () => /API key \(demo organization\): (qk_\S+)/.test(quire.output()) || quire.child.exitCode !== null,
    120_000,
    'npm start to print a key',
  );
  const match = /API key \(demo organization\): (qk_\S+)/.exec(quire.output());
  if (!match) throw new Error(`npm start did not print a key:\n${quire.output()}`);
  return match[1]!;
}

const descendants = async (root: number) => (await descendantsOf(root)).map((p) => p.pid);

async function processOf(quire: Quire, cmdline: string): Promise<number | undefined> {
  return (await descendantsOf(quire.child.pid!)).find((p) => p.argv.join(' ').includes(cmdline))?.pid;
}

const api = (quire: Quire, key: string, pathname: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${quire.port}${pathname}`, {
    ...init,
    headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) },
  });

async function uploadPdf(quire: Quire, key: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([await imageHeavyPdf(1)]), `${name}.pdf`);
  const res = await api(quire, key, '/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json())._id;
}

describe('npm start supervises what it started', () => {
  it('restarts a killed worker and a killed Redis, materials in flight still settle, and SIGTERM stops the whole tree', async () => {
    const quire = await npmStart(
      { WORKER_LOCK_MS: '3000', SUPERVISOR_BACKOFF_MS: '500', EXTRACT_MAX_MEMORY_MB: '4096' },
      { embedded: true },
    );
    const key = await keyOf(quire);

    const ids = [await uploadPdf(quire, key, 'one'), await uploadPdf(quire, key, 'two')];
    const worker = await processOf(quire, COMPILED_WORKER);
    expect(worker).toBeDefined();
    await waitUntil(
      async () => (await api(quire, key, `/api/v1/materials/${ids[0]}`).then((r) => r.json())).metadata.progress > 0,
      60_000,
      'the worker to start on a material',
    );
    process.kill(worker!, 'SIGKILL');
    await waitUntil(
      () => /worker ended \(signal SIGKILL\); restarting it in 500 ms/.test(quire.output()),
      10_000,
      'the restart to be logged',
    );
    await waitUntil(
      () => quire.output().includes('worker restarted'),
      60_000,
      `the worker to come back:\n${quire.output()}`,
    );
    expect(await processOf(quire, COMPILED_WORKER)).not.toBe(worker);
    for (const id of ids) {
      await waitUntil(
        async () => (await api(quire, key, `/api/v1/materials/${id}`).then((r) => r.json())).status === 'active',
        180_000,
        `material ${id} to settle`,
      );
    }

    const redis = await processOf(quire, 'redis-server');
    expect(redis).toBeDefined();
    process.kill(redis!, 'SIGKILL');
    await waitUntil(
      () => quire.output().includes('redis-server restarted'),
      30_000,
      `Redis to come back:\n${quire.output()}`,
    );
    await waitUntil(
      async () => {
        const res = await api(quire, key, '/api/v1/materials/upload-and-process', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'after redis', content: { text: 'processed after Redis came back' } }),
        });
        return res.status === 201 && (await res.json()).status === 'active';
      },
      60_000,
      'processing to work again after Redis restarted',
    );

    // Not a terminal's Ctrl-C (which reaches every process of the group): one signal to npm itself.
    const tree = await descendants(quire.child.pid!);
    expect(tree.length).toBeGreaterThan(4);
    quire.child.kill('SIGTERM');
    await quire.exited;
    await waitUntil(
      async () => (await Promise.all(tree.map(isRunning))).every((running) => !running),
      60_000,
      'every process npm start ran to stop',
    );
    expect(quire.output()).toContain('Stopping quire...');
    expect(
      await fetch(`http://127.0.0.1:${quire.port}/healthz`).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');
    for (const leftover of [path.join(quire.dataDir, 'postgres'), path.join(quire.dataDir, 'redis'), COMPILED_WORKER]) {
      expect(spawnSync('pgrep', ['-f', leftover]).stdout.toString().trim(), leftover).toBe('');
    }
  });

  it('fails with the reason, never "quire is running", when the worker cannot start', async () => {
    const taken = net.createServer();
    const port = await getPort();
    await new Promise<void>((resolve) => taken.listen(port, '0.0.0.0', resolve));
    cleanup.push(() => new Promise((resolve) => taken.close(resolve)));
    const quire = await npmStart({ WORKER_METRICS_PORT: String(port), LOG_LEVEL: 'info' }, { embedded: false });
    expect(await quire.exited).not.toBe(0);
    expect(quire.output()).toMatch(/quire could not start: worker ended before it was ready \(exit code 1\)/);
    expect(quire.output()).toMatch(/WORKER_METRICS_PORT \d+ is in use/);
    expect(quire.output()).not.toContain('quire is running');
    expect(
      await fetch(`http://127.0.0.1:${quire.port}/healthz`).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');
  });

  it('gives up loudly, and stops everything, when a process keeps crashing', async () => {
    const quire = await npmStart({ SUPERVISOR_MAX_RESTARTS: '1', SUPERVISOR_BACKOFF_MS: '100' }, { embedded: false });
    await keyOf(quire);
    for (let crash = 1; crash <= 2; crash++) {
      const worker = await processOf(quire, COMPILED_WORKER);
      expect(worker, quire.output()).toBeDefined();
      process.kill(worker!, 'SIGKILL');
      if (crash === 1) await waitUntil(() => quire.output().includes('worker restarted'), 60_000, 'the first restart');
    }
    expect(await quire.exited).toBe(1);
    expect(quire.output()).toMatch(
      /quire gave up: worker keeps crashing: it ended 2 times within 60 s \(last: signal SIGKILL\)/,
    );
    expect(
      await fetch(`http://127.0.0.1:${quire.port}/healthz`).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');
  });
});

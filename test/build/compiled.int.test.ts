import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  descendantsOf,
  makePdf,
  spawnService,
  startTestStack,
  uploadAndProcess,
  waitForOk,
  waitUntil,
  type ServiceProcess,
  type TestStack,
} from '@quire/testkit';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Inside the checkout, so that the compiled code finds node_modules as dist/ does.
const OUT = path.join(ROOT, 'test-artifacts', `compiled-${process.pid}`);

let stack: TestStack;
const running: ServiceProcess[] = [];
beforeAll(async () => {
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), OUT], { cwd: ROOT });
  stack = await startTestStack({ worker: false, config: { WORKER_CONCURRENCY: '1', EXTRACT_SPARE_CHILDREN: '1' } });
});
afterAll(async () => {
  for (const service of running) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await stack?.close();
  await fs.rm(OUT, { recursive: true, force: true });
});

describe('the compiled build (npm run build), as production runs it with plain node', () => {
  it('serves the api and processes a PDF in a warm sandbox child, with no TypeScript loader anywhere', async () => {
    const port = await getPort();
    const url = `http://127.0.0.1:${port}`;
    const api = spawnService('api', { ...stack.env, PORT: String(port), PUBLIC_URL: url }, { compiledDir: OUT });
    const worker = spawnService('worker', stack.env, { compiledDir: OUT });
    running.push(api, worker);
    await waitUntil(() => worker.output().includes('worker started'), 30_000, 'the worker to start');
    await waitForOk(`${url}/healthz`, 30_000, 'the api to listen');
    // The api's own assets are served from the build.
    expect((await fetch(`${url}/docs/`)).status).toBe(200);

    const tenant = await stack.newTenant();
    const res = await uploadAndProcess(tenant, await makePdf(['Compiled and warm.']), 'compiled.pdf');
    expect(res.status).toBe(201);
    expect((await res.json()).metadata.extractedText).toBe('Compiled and warm.');

    // The slots' children (a bulk slot and the interactive lane's) and the spare started ahead of a replacement
    // (once the pool is idle), all compiled. How many are alive at one moment depends on timing (a spare starts a
    // second after the pool goes idle, a replaced child exits), so the wait is for at least the slot and a spare.
    let processes: Awaited<ReturnType<typeof descendantsOf>> = [];
    const sandboxChildren = () => processes.filter((p) => p.argv.some((arg) => arg.endsWith('sandbox-child.js')));
    await waitUntil(
      async () => {
        processes = [...(await descendantsOf(worker.child.pid!)), ...(await descendantsOf(api.child.pid!))];
        return sandboxChildren().length >= 2;
      },
      30_000,
      'the slot child and a spare',
    );
    for (const child of sandboxChildren()) expect(child.argv.some((arg) => arg.startsWith(OUT))).toBe(true);
    expect(processes.flatMap((p) => p.argv).filter((arg) => /tsx/.test(arg))).toEqual([]);
  });
});

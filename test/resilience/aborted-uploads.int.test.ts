import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localStorageOf,
  sendJson,
  spawnService,
  startTestStack,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let api: ServiceProcess;
let apiUrl: string;

/** The api as its own process, so its open file descriptors can be counted. */
async function startApi(): Promise<ServiceProcess> {
  const port = await getPort();
  apiUrl = `http://127.0.0.1:${port}`;
  const proc = spawnService('api', { ...stack.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: apiUrl });
  await waitUntil(() => proc.output().includes('api listening'), 30_000, 'the api to listen');
  return proc;
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
  api = await startApi();
});
afterAll(async () => {
  if (api?.child.exitCode === null) api.child.kill('SIGKILL');
  await stack?.close();
});

const storageRoot = () => path.join(localStorageOf(stack).dir, localStorageOf(stack).keyPrefix);
const openFds = async (pid: number) => (await fs.readdir(`/proc/${pid}/fd`)).length;
const partials = async () =>
  (await fs.readdir(storageRoot(), { recursive: true }).catch(() => [] as string[])).filter((f) =>
    String(f).endsWith('.partial'),
  );

/** Files in the storage folder, finished objects and partials alike. */
async function storedFiles(): Promise<number> {
  const names = await fs.readdir(storageRoot(), { recursive: true }).catch(() => [] as string[]);
  const stats = await Promise.all(
    names.map((n) => fs.stat(path.join(storageRoot(), String(n))).catch(() => undefined)),
  );
  return stats.filter((s) => s?.isFile()).length;
}

/** An upload URL served by the api process under test (the signature covers the key and expiry, not the host). */
async function uploadPath(): Promise<string> {
  const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
    filename: 'a.txt',
    contentType: 'text/plain',
    name: 'a',
  });
  const url = new URL((await res.json()).uploadUrl);
  return `${url.pathname}${url.search}`;
}

/** Writes raw bytes on one connection; resolves with whatever the server answered before the connection closed. */
function raw(request: string | Buffer, options: { abortAfterMs?: number } = {}): Promise<string> {
  const { port } = new URL(apiUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (c) => (answer += c.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
    socket.write(request);
    if (options.abortAfterMs !== undefined) setTimeout(() => socket.resetAndDestroy(), options.abortAfterMs);
  });
}

const headers = (target: string, length: number) =>
  `PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`;

describe('a PUT to an upload URL that does not finish', () => {
  it('leaves no open file and no partial file behind, however often it is aborted, and the URL still works', async () => {
    const target = await uploadPath();
    // Warm up: one refused PUT loads everything a PUT needs, so the count below is the steady state.
    await fetch(`${apiUrl}/storage/put?bogus=1`, { method: 'PUT', body: 'x' });
    const before = await openFds(api.child.pid!);

    for (let i = 0; i < 20; i++) {
      await raw(Buffer.concat([Buffer.from(headers(target, 1_000_000)), Buffer.alloc(64 * 1024, 'a')]), {
        abortAfterMs: 50,
      });
    }
    await waitUntil(
      async () => (await openFds(api.child.pid!)) <= before + 2,
      10_000,
      `the api's descriptors to return to ${before}`,
    );
    // Closed first, then removed: the file goes a moment after its descriptor.
    await waitUntil(async () => (await partials()).length === 0, 10_000, 'no partial file left');

    const done = await fetch(`${apiUrl}${target}`, { method: 'PUT', body: 'the whole body at last' });
    expect(done.status).toBe(200);
  });

  it('answers a body longer than its Content-Length with a JSON 400 and keeps nothing of it', async () => {
    const target = await uploadPath();
    const before = await openFds(api.child.pid!);
    const filesBefore = await storedFiles();
    const answer = await raw(headers(target, 10) + 'x'.repeat(5000));
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('"statusCode":400');
    await waitUntil(
      async () => (await openFds(api.child.pid!)) <= before + 2,
      10_000,
      `the api's descriptors to return to ${before}`,
    );
    // The client never heard 200, so the URL must still take its body. The api answered 400 as soon as it read
    // the extra bytes, while the request's handler may still be storing the first 10 (a retry meanwhile is 409,
    // in progress or used) before it sees the connection gone and removes them.
    await waitUntil(
      async () => {
        const retried = await fetch(`${apiUrl}${target}`, { method: 'PUT', body: 'retried' });
        if (retried.status !== 200 && retried.status !== 409) throw new Error(`retry answered ${retried.status}`);
        return retried.status === 200;
      },
      10_000,
      'the URL to take the retried body',
    );
    expect(await storedFiles()).toBe(filesBefore + 1);
  });

  it('has its partial file removed when the api restarts after dying mid-upload', async () => {
    const target = await uploadPath();
    const key = new URL(`${apiUrl}${target}`).searchParams.get('key')!;
    const partial = path.join(storageRoot(), `${key}.partial`);
    const dying = raw(Buffer.concat([Buffer.from(headers(target, 1_000_000)), Buffer.alloc(1024, 'a')]));
    await waitUntil(
      () =>
        fs.access(partial).then(
          () => true,
          () => false,
        ),
      10_000,
      'the upload to start writing',
    );
    api.child.kill('SIGKILL');
    await api.exited;
    await dying;
    expect(await partials()).toHaveLength(1);
    // Left by a dead writer: older than HTTP_IDLE_TIMEOUT_MS once the api is back.
    const old = new Date(Date.now() - stack.config.server.idleTimeoutMs - 60_000);
    await fs.utimes(partial, old, old);

    api = await startApi();
    expect(await partials()).toEqual([]);
    expect((await fetch(`${apiUrl}${target}`, { method: 'PUT', body: 'after the restart' })).status).toBe(200);
  });
});

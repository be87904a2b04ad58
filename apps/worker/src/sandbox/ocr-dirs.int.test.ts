import fs from 'node:fs/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  descendantsOf,
  scannedPdf,
  scanOf,
  sendJson,
  startTestStack,
  waitForStatus,
  waitUntil,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack | undefined;
let tenant: Tenant;
let scans: Buffer;
/** Every sandbox child this test's worker ran: the OCR folders named after them are this test's own. */
const children = new Set<number>();

beforeAll(async () => {
  stack = await startTestStack({ config: { WORKER_CONCURRENCY: '1' } });
  tenant = await stack.newTenant();
  const page = await scanOf(['Scanned words that take tesseract a while to read.', 'A second line of them.']);
  scans = await scannedPdf(Array.from({ length: 40 }, () => page));
});
afterAll(() => stack?.close());

async function ocrDirsOf(pids: Iterable<number>): Promise<string[]> {
  const wanted = new Set(pids);
  return (await fs.readdir(os.tmpdir())).filter((name) => wanted.has(Number(/^quire-ocr-(\d+)-/.exec(name)?.[1])));
}

/** Uploads the scans and waits until a sandbox child of this process has made its OCR folder: the pid of that child. */
async function uploadUntilOcr(): Promise<{ id: string; pid: number }> {
  const form = new FormData();
  form.append('name', 'scans');
  form.append('file', new Blob([scans]), 'scans.pdf');
  const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  const { _id: id } = (await res.json()) as { _id: string };
  let pid = 0;
  await waitUntil(
    async () => {
      for (const child of await descendantsOf(process.pid)) children.add(child.pid);
      const [dir] = await ocrDirsOf(children);
      pid = dir ? Number(/^quire-ocr-(\d+)-/.exec(dir)![1]) : 0;
      return pid > 0;
    },
    60_000,
    'a sandbox child to start tesseract',
  );
  return { id, pid };
}

describe('the OCR folders of sandbox children', () => {
  it('are removed when an OCR job is cancelled, when a child is killed from outside, and when the worker stops', async () => {
    const cancelled = await uploadUntilOcr();
    expect((await sendJson(tenant, 'POST', `/api/v1/materials/${cancelled.id}/cancel-job`)).status).toBe(200);
    expect((await waitForStatus(tenant, cancelled.id, ['error'])).metadata.error.code).toBe('CANCELLED');
    await waitUntil(async () => (await ocrDirsOf([cancelled.pid])).length === 0, 5_000, 'the cancelled child’s folder');

    const killed = await uploadUntilOcr();
    // What the kernel's OOM killer or an operator does.
    process.kill(killed.pid, 'SIGKILL');
    await waitUntil(async () => (await ocrDirsOf([killed.pid])).length === 0, 5_000, 'the killed child’s folder');
    expect((await sendJson(tenant, 'POST', `/api/v1/materials/${killed.id}/cancel-job`)).status).toBe(200);
    await waitForStatus(tenant, killed.id, ['error']);

    await stack!.close();
    stack = undefined;
    expect(await ocrDirsOf(children)).toEqual([]);
  });
});

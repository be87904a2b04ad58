import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentBombPdf,
  imageHeavyPdf,
  startTestStack,
  uploadAndProcess,
  waitForStatus,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const RETRY_LOG = 'a sandbox child was killed from outside; retrying its job once';

/** The worker's log lines as JSON, to see whether a job was tried again. */
function logLines() {
  const lines: { msg?: string; pid?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream, retries: () => lines.filter((line) => line.msg === RETRY_LOG) };
}

describe('a sandbox child killed from outside mid-job', () => {
  let stack: TestStack;
  let tenant: Tenant;
  const log = logLines();
  beforeAll(async () => {
    stack = await startTestStack({ config: { WORKER_CONCURRENCY: '1', LOG_LEVEL: 'warn' }, logStream: log.stream });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('is not the file’s fault: the job runs again in a fresh child and the material ends active', async () => {
    const form = new FormData();
    form.append('name', 'killed mid-job');
    form.append('file', new Blob([await imageHeavyPdf(12, 3000)]), 'pictures.pdf');
    const created = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const { _id: id } = await created.json();

    // The child reports progress once it reads the file: past the 5 % the worker sets before the sandbox.
    let victim: number | undefined;
    const deadline = Date.now() + 60_000;
    while (victim === undefined && Date.now() < deadline) {
      const material = await (await tenant.request(`/api/v1/materials/${id}`)).json();
      expect(material.status).toBe('processing');
      if ((material.metadata.progress ?? 0) > 5) victim = stack.worker!.sandbox.pids()[0];
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(victim).toBeDefined();
    // What the kernel's OOM killer or an operator does.
    process.kill(victim!, 'SIGKILL');

    const done = await waitForStatus(tenant, id, ['active', 'error'], 120_000);
    expect(done.status, JSON.stringify(done.metadata.error)).toBe('active');
    expect(done.metadata.pageCount).toBe(12);
    expect(log.retries()).toEqual([expect.objectContaining({ pid: victim, signal: 'SIGKILL' })]);
    expect(stack.worker!.sandbox.pids()[0]).not.toBe(victim);
  });
});

describe('a file that really exceeds its memory ceiling', () => {
  let stack: TestStack;
  const log = logLines();
  beforeAll(async () => {
    stack = await startTestStack({
      config: { EXTRACT_MAX_MEMORY_MB: '256', WORKER_CONCURRENCY: '1', LOG_LEVEL: 'warn' },
      logStream: log.stream,
    });
  });
  afterAll(() => stack?.close());

  it('still ends TOO_LARGE after one try: quire’s own kill is never retried', async () => {
    const tenant = await stack.newTenant();
    const bomb = await uploadAndProcess(tenant, contentBombPdf(300), 'bomb.pdf');
    expect(bomb.status).toBe(422);
    expect((await bomb.json()).material.metadata.error.code).toBe('TOO_LARGE');
    expect(log.retries()).toEqual([]);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  contentBombPdf,
  descendantsOf,
  imageHeavyPdf,
  makePdf,
  makeTextImage,
  SANDBOX_SETTINGS,
  sandboxJob,
  scannedPdf,
  scanOf,
} from '@quire/testkit';
import { SandboxPool, type SandboxPoolOptions } from './pool.ts';

let dir: string;
let jobs = 0;
const pools: SandboxPool[] = [];
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pool-test-'));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const LIMITS = { timeoutMs: 60_000, maxMemoryMb: 1024 };
const silent = { info() {}, warn() {}, debug() {} };

function poolOf(options: Partial<SandboxPoolOptions> = {}): SandboxPool {
  const pool = new SandboxPool({
    slots: 1,
    maxJobs: 100,
    recycleRssMb: 4096,
    maxMemoryMb: LIMITS.maxMemoryMb,
    settings: SANDBOX_SETTINGS,
    logger: silent,
    ...options,
  });
  pools.push(pool);
  return pool;
}

/** A one-page PDF through the pool; its text must come back whole. */
async function pdfJob(pool: SandboxPool, words: string) {
  const spec = await sandboxJob(dir, `job-${++jobs}`, await makePdf([words]), 'pdf');
  const outcome = await pool.run(spec, LIMITS, () => {});
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  if (outcome.ok) expect(outcome.result.text).toBe(words);
  return outcome.childPid;
}

/** The sandbox children this test process has running. */
async function childPids(): Promise<Set<number>> {
  const children = await descendantsOf(process.pid);
  return new Set(children.filter((p) => p.argv.some((arg) => arg.endsWith('child-entry.mjs'))).map((p) => p.pid));
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await check()).toBe(true);
}

describe('SandboxPool', () => {
  it('serves jobs one after another in the same warm child, and replaces it after maxJobs', async () => {
    const pool = poolOf({ maxJobs: 3 });
    await pool.start();
    const pids = [];
    for (let i = 1; i <= 5; i++) pids.push(await pdfJob(pool, `job number ${i}`));
    expect(new Set(pids.slice(0, 3)).size).toBe(1);
    expect(pids[3]).not.toBe(pids[0]);
    expect(pids[4]).toBe(pids[3]);
  });

  it('with maxJobs 1 runs every job in a fresh process', async () => {
    const pool = poolOf({ maxJobs: 1 });
    const pids = [];
    for (let i = 1; i <= 3; i++) pids.push(await pdfJob(pool, `fresh ${i}`));
    expect(new Set(pids).size).toBe(3);
  });

  it('with a spare, a replaced child gives its slot to the spare started ahead, and another spare starts', async () => {
    const pool = poolOf({ maxJobs: 1, spares: 1 });
    await pool.start();
    const startedAhead = await childPids();
    expect(startedAhead.size).toBe(2);
    const first = await pdfJob(pool, 'first of three');
    const second = await pdfJob(pool, 'second of three');
    const third = await pdfJob(pool, 'third of three');
    expect(new Set([first, second, third]).size).toBe(3);
    expect(startedAhead).toContain(first);
    expect(startedAhead).toContain(second);
    // The slot's child and one spare, whatever has been replaced meanwhile.
    await waitFor(async () => (await childPids()).size === 2);
  });

  it('starts no spare while jobs keep the pool busy, and one once it has nothing to do', async () => {
    const pool = poolOf({ spares: 1 });
    for (let i = 1; i <= 3; i++) {
      await pdfJob(pool, `busy ${i}`);
      expect((await childPids()).size).toBe(1);
    }
    await waitFor(async () => (await childPids()).size === 2);
  });

  it('after a file fails, the next job runs in a spare that never ran a job; closing stops the spares too', async () => {
    const pool = poolOf({ spares: 1 });
    await pool.start();
    const startedAhead = await childPids();
    const failed = await pool.run(await sandboxJob(dir, 'empty', Buffer.alloc(0), 'pdf'), LIMITS, () => {});
    expect(failed).toMatchObject({ ok: false, code: 'CORRUPT' });
    const next = await pdfJob(pool, 'after the failure');
    expect(next).not.toBe(failed.childPid);
    expect(startedAhead).toContain(next);
    await pool.close();
    expect(await childPids()).toEqual(new Set());
  });

  it('replaces a child that holds more than the threshold after a job', async () => {
    const pool = poolOf({ recycleRssMb: 64 });
    const first = await pdfJob(pool, 'before the threshold');
    const second = await pdfJob(pool, 'after the threshold');
    expect(second).not.toBe(first);
  });

  it('ends CORRUPT when the child dies of its own fault during a job, and the next job succeeds', async () => {
    const pool = poolOf();
    await pool.start();
    const [pid] = pool.pids();
    const spec = await sandboxJob(dir, 'crash', await imageHeavyPdf(4, 3000), 'pdf', true);
    // SIGSEGV is what a process brings on itself (a bug in native code the file reached): the file's fault.
    let crashed = false;
    const outcome = await pool.run(spec, LIMITS, () => {
      if (!crashed) process.kill(pid!, 'SIGSEGV');
      crashed = true;
    });
    expect(outcome).toMatchObject({ ok: false, code: 'CORRUPT', message: expect.stringContaining('SIGSEGV') });
    const next = await pdfJob(pool, 'after the crash');
    expect(next).not.toBe(pid);
  });

  it('runs a job once more in a fresh child when its child is killed from outside', async () => {
    const pool = poolOf();
    await pool.start();
    const [pid] = pool.pids();
    const spec = await sandboxJob(dir, 'outside-kill', await imageHeavyPdf(4, 3000), 'pdf', true);
    // What the kernel's OOM killer or an operator does: a SIGKILL quire did not send.
    let killed = false;
    const outcome = await pool.run(spec, LIMITS, () => {
      if (!killed) process.kill(pid!, 'SIGKILL');
      killed = true;
    });
    expect(killed).toBe(true);
    expect(outcome).toMatchObject({ ok: true, result: { metadata: { pageCount: 4 } } });
    expect(outcome.childPid).not.toBe(pid);
  });

  it('replaces a child killed for its time budget, and the next job succeeds', async () => {
    const pool = poolOf();
    const spec = await sandboxJob(dir, 'slow', contentBombPdf(300), 'pdf');
    const outcome = await pool.run(spec, { ...LIMITS, timeoutMs: 500 }, () => {});
    expect(outcome).toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(await pdfJob(pool, 'after the timeout')).not.toBe(outcome.childPid);
  });

  it('ends a decompression bomb TOO_LARGE, and the next job in the same slot is unaffected', async () => {
    const pool = poolOf({ maxMemoryMb: 256 });
    const spec = await sandboxJob(dir, 'bomb', contentBombPdf(300), 'pdf');
    const outcome = await pool.run(spec, { timeoutMs: 120_000, maxMemoryMb: 256 }, () => {});
    expect(outcome).toMatchObject({ ok: false, code: 'TOO_LARGE' });
    const next = await sandboxJob(dir, 'after-bomb', await makePdf(['after the bomb']), 'pdf');
    const after = await pool.run(next, { timeoutMs: 120_000, maxMemoryMb: 256 }, () => {});
    expect(after).toMatchObject({ ok: true, result: { text: 'after the bomb' } });
    expect(after.childPid).not.toBe(outcome.childPid);
  });

  it('keeps its OCR engine from file to file, and each file reads as its own', async () => {
    const pool = poolOf();
    const read = async (name: string, body: Buffer, contentType: 'image' | 'pdf') => {
      const outcome = await pool.run(await sandboxJob(dir, name, body, contentType), LIMITS, () => {});
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
      return { text: outcome.ok ? outcome.result.text.toLowerCase() : '', pid: outcome.childPid };
    };
    const first = await read('ocr-1', await makeTextImage(['Photosynthesis in leaves']), 'image');
    const scan = await read('ocr-2', await scannedPdf([await scanOf(['Volcanoes erupt molten rock'])]), 'pdf');
    const second = await read('ocr-3', await makeTextImage(['Glaciers carve valleys']), 'image');
    expect(first.text).toContain('photosynthesis');
    expect(scan.text).toContain('volcanoes');
    expect(scan.text).not.toContain('photosynthesis');
    expect(second.text).toContain('glaciers');
    expect(second.text).not.toMatch(/photosynthesis|volcanoes/);
    expect(new Set([first.pid, scan.pid, second.pid]).size).toBe(1);
  });

  it('gives up a job aborted while the child of its slot is still starting, and the slot serves the next', async () => {
    const pool = poolOf();
    const spec = await sandboxJob(dir, 'aborted-at-start', contentBombPdf(300), 'pdf');
    const shutdown = new AbortController();
    const running = pool.run(spec, LIMITS, () => {}, shutdown.signal);
    // The child takes far longer than this to load its extractors.
    setTimeout(() => shutdown.abort(new Error('worker shutting down')), 50);
    await expect(running).rejects.toThrow('worker shutting down');
    await pdfJob(pool, 'after the abort');
  });

  it('queues a job until a slot is free', async () => {
    const pool = poolOf();
    const results = await Promise.all([1, 2, 3].map((i) => pdfJob(pool, `queued ${i}`)));
    expect(new Set(results).size).toBe(1);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentType } from '@quire/extract';
import { contentBombPdf, imageHeavyPdf, makePdf, SANDBOX_SETTINGS, sandboxJob } from '@quire/testkit';
import { oneOffSandbox } from './run-sandboxed.ts';

const runSandboxed = oneOffSandbox(SANDBOX_SETTINGS);

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-sandbox-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const specFor = (name: string, body: Buffer, contentType: ContentType, extractImages = false) =>
  sandboxJob(dir, name, body, contentType, extractImages);

describe('runSandboxed', () => {
  it('extracts in a child process and reports progress', async () => {
    const spec = await specFor('ok', await makePdf(['first page', 'second page words']), 'pdf');
    const progress: number[] = [];
    const outcome = await runSandboxed(spec, { timeoutMs: 60_000, maxMemoryMb: 1024 }, (p) => progress.push(p));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.metadata.pageCount).toBe(2);
    expect(outcome.result.text).toContain('second page words');
    expect(progress.length).toBeGreaterThan(0);
    // The child's own getrusage peak: a run shorter than one memory poll still reports what Node itself needs.
    expect(outcome.peakRssMb).toBeGreaterThan(30);
  });

  it("reports the child's own peak memory, not the larger peak of the process that forked it", async () => {
    // Linux carries getrusage's maxRSS over exec: a child of a big worker would report the worker's peak.
    const ballast = Buffer.alloc(512 * 1024 * 1024, 1);
    const spec = await specFor('small-child', Buffer.from('A few words of plain text.'), 'text');
    const outcome = await runSandboxed(spec, { timeoutMs: 60_000, maxMemoryMb: 1024 }, () => {});
    expect(outcome.ok).toBe(true);
    expect(process.memoryUsage.rss() / 1024 ** 2).toBeGreaterThan(512);
    expect(outcome.peakRssMb).toBeLessThan(400);
    expect(ballast.length).toBeGreaterThan(0);
  });

  it('grants the per-page allowance once the child has counted the pages, and only then', async () => {
    // About 9 s of work here; the pages are counted within the first 2 s.
    const pdf = await imageHeavyPdf(6, 3000);
    const base = { timeoutMs: 3_500, maxMemoryMb: 2048 };
    const withoutPages = await runSandboxed(await specFor('paged-base', pdf, 'pdf', true), base, () => {});
    expect(withoutPages).toMatchObject({ ok: false, code: 'TIMEOUT', message: 'Processing took longer than 4 s' });

    const started = Date.now();
    const withPages = await runSandboxed(
      await specFor('paged', pdf, 'pdf', true),
      { ...base, perPageMs: 20_000, maxTimeoutMs: 90_000 },
      () => {},
    );
    expect(withPages.ok, JSON.stringify(withPages)).toBe(true);
    expect(Date.now() - started).toBeGreaterThan(base.timeoutMs);
  });

  it('kills an extraction that overruns its time budget and says TIMEOUT', async () => {
    const spec = await specFor('slow', contentBombPdf(300), 'pdf');
    const started = Date.now();
    const outcome = await runSandboxed(spec, { timeoutMs: 300, maxMemoryMb: 8192 }, () => {});
    expect(outcome).toMatchObject({ ok: false, code: 'TIMEOUT' });
    // Far below what the bomb would take to the end; the margin is the child's start on a loaded machine.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('kills an extraction that overruns its memory ceiling and says TOO_LARGE', async () => {
    const spec = await specFor('big', contentBombPdf(300), 'pdf');
    const outcome = await runSandboxed(spec, { timeoutMs: 120_000, maxMemoryMb: 200 }, () => {});
    expect(outcome).toMatchObject({ ok: false, code: 'TOO_LARGE' });
  });

  it('turns a file the extractor rejects into its error code', async () => {
    const spec = await specFor('corrupt', Buffer.from('%PDF-1.4\nthis is not really a pdf'), 'pdf');
    const outcome = await runSandboxed(spec, { timeoutMs: 60_000, maxMemoryMb: 1024 }, () => {});
    expect(outcome).toMatchObject({ ok: false, code: 'CORRUPT' });
  });
});

import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepStaleOcrDirs } from './ocr-dirs.ts';

let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-ocr-sweep-test-'));
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

const silent = { warn: () => {} };

describe('sweepStaleOcrDirs (worker start-up)', () => {
  it('removes the folders of processes that are gone and keeps those of running ones', async () => {
    // A pid that surely ended: a process that ran and was reaped.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await fs.mkdir(path.join(tmp, `quire-ocr-${gone}-abc123`));
    await fs.writeFile(path.join(tmp, `quire-ocr-${gone}-abc123`, 'eng.traineddata'), '');
    await fs.mkdir(path.join(tmp, `quire-ocr-${process.pid}-def456`));
    await fs.mkdir(path.join(tmp, 'quire-job-1-x'));
    expect(await sweepStaleOcrDirs(silent, 60_000, tmp)).toBe(1);
    expect((await fs.readdir(tmp)).sort()).toEqual(['quire-job-1-x', `quire-ocr-${process.pid}-def456`]);
  });

  it('removes an unnamed folder of an older version only once it is stale', async () => {
    const legacy = path.join(tmp, 'quire-ocr-Xy12Zq');
    await fs.mkdir(legacy);
    expect(await sweepStaleOcrDirs(silent, 60_000, tmp)).toBe(0);
    const old = new Date(Date.now() - 120_000);
    await fs.utimes(legacy, old, old);
    expect(await sweepStaleOcrDirs(silent, 60_000, tmp)).toBe(1);
    expect(await fs.readdir(tmp)).toEqual([]);
  });
});

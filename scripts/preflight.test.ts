import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PREFLIGHT = path.join(import.meta.dirname, 'preflight.mjs');
let bareBin: string;

beforeAll(async () => {
  // A PATH with node and nothing else: a machine where no system package is installed.
  bareBin = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-preflight-'));
  await fs.symlink(process.execPath, path.join(bareBin, 'node'));
});
afterAll(() => fs.rm(bareBin, { recursive: true, force: true }));

function preflight(mode: 'start' | 'test', env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [PREFLIGHT, mode], { env, encoding: 'utf8' });
}

describe('preflight of npm start', () => {
  it('passes on this machine, where everything is installed', () => {
    const result = preflight('start', { PATH: process.env.PATH });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('stops without redis-server and says what to run, and warns about the missing media tools', () => {
    const result = preflight('start', { PATH: bareBin });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'redis-server is not installed. Run: scripts/setup-system.sh (or set REDIS_URL to an existing Redis).',
    );
    expect(result.stderr).toContain(
      'warning: ffmpeg, ffprobe, pocketsphinx_continuous not found, so audio and video materials will end in error.',
    );
  });

  it('needs no redis-server when REDIS_URL names one, and no pocketsphinx when speech is off', () => {
    const result = preflight('start', {
      PATH: bareBin,
      REDIS_URL: 'redis://redis.internal:6379',
      SPEECH_ENGINE: 'none',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(
      'warning: ffmpeg, ffprobe not found, so audio and video materials will end in error. Run: scripts/setup-system.sh\n',
    );
  });
});

describe('preflight of npm test', () => {
  it('passes on this machine, where setup-system.sh finds nothing missing', () => {
    expect(preflight('test', { PATH: process.env.PATH }).status).toBe(0);
  });
});

import { retriedOnceIfKilledFromOutside } from './outside-kill.ts';
import type { RunSandboxed } from './pool.ts';
import type { SandboxSpec } from './protocol.ts';
import { WarmChild } from './warm-child.ts';

export type { SandboxLimits } from './warm-child.ts';
export type { RunSandboxed } from './pool.ts';

/**
 * One extraction in a process of its own, started for it and killed after it: what runs a job when no pool
 * is given (a test, a one-off run). Same limits and outcomes as a pool's job, and the same second try after a
 * kill from outside.
 */
export const runSandboxed: RunSandboxed = (spec, limits, onProgress, signal) =>
  retriedOnceIfKilledFromOutside(spec, undefined, async () => {
    const child = new WarmChild(settingsOf(spec), limits.maxMemoryMb);
    try {
      return { ...(await child.run(spec, limits, onProgress, signal)), childPid: child.pid };
    } finally {
      await child.kill();
    }
  });

function settingsOf(spec: SandboxSpec) {
  const {
    contentType: _type,
    inputPath: _in,
    outputDir: _out,
    extractImages: _images,
    sourceUrl: _url,
    charset: _charset,
    fileName: _name,
    mimeType: _mime,
    ...settings
  } = spec;
  return settings;
}

import type { ExtractorSettings } from '@quire/extract';
import { retriedOnceIfKilledFromOutside } from './outside-kill.ts';
import type { RunSandboxed } from './pool.ts';
import { WarmChild } from './warm-child.ts';

export type { SandboxLimits } from './warm-child.ts';
export type { RunSandboxed } from './pool.ts';

/**
 * One extraction in a process of its own, started for it with the deployment's `settings` and killed after
 * it: what runs a job when no pool is given (a test, a one-off run). Same limits and outcomes as a pool's job,
 * and the same second try after a kill from outside.
 */
export const oneOffSandbox =
  (settings: ExtractorSettings): RunSandboxed =>
  (spec, limits, onProgress, signal) =>
    retriedOnceIfKilledFromOutside(spec, undefined, async () => {
      const child = new WarmChild(settings, limits.maxMemoryMb);
      try {
        return { ...(await child.run(spec, limits, onProgress, signal)), childPid: child.pid };
      } finally {
        await child.kill();
      }
    });

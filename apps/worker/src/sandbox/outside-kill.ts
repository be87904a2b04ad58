import fs from 'node:fs/promises';
import type { Logger } from 'pino';
import type { SandboxSpec } from './protocol.ts';

/**
 * How a sandbox child can end during a job, and whose fault it is:
 * - killed by quire: the job's time budget (TIMEOUT), its memory ceiling (TOO_LARGE), the images' share, or an
 *   abort (cancellation, shutdown). These decide the job's outcome and are never retried.
 * - died on its own: an exit code, or a signal a process brings on itself (SIGSEGV, SIGABRT, SIGBUS, ...): the
 *   file broke the extractor, CORRUPT.
 * - killed from outside: a signal someone else sends (the kernel's OOM killer, an operator's `kill`). Not the
 *   file's fault: the job runs once more in a fresh child.
 */
const SENT_FROM_OUTSIDE: ReadonlySet<string> = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']);

export const isSentFromOutside = (signal: NodeJS.Signals | null): signal is NodeJS.Signals =>
  signal !== null && SENT_FROM_OUTSIDE.has(signal);

/** A child killed during a job by a signal quire did not send. */
export class KilledFromOutside extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    readonly pid: number | undefined,
  ) {
    super(`the sandbox child ${pid ?? ''} was killed from outside (${signal}) during the job`);
    this.name = 'KilledFromOutside';
  }
}

/**
 * Runs a job, and once more in a fresh child if its child was killed from outside (with the output folder
 * emptied of what the first try wrote). A second such kill is not the file's fault either: it is thrown, and
 * the queue retries the job as it does any failure of the machine.
 */
export async function retriedOnceIfKilledFromOutside<T>(
  spec: Pick<SandboxSpec, 'outputDir'>,
  logger: Pick<Logger, 'warn'> | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof KilledFromOutside)) throw err;
    logger?.warn(
      { pid: err.pid, signal: err.signal },
      'a sandbox child was killed from outside; retrying its job once',
    );
    await fs.rm(spec.outputDir, { recursive: true, force: true });
    await fs.mkdir(spec.outputDir, { recursive: true });
    return attempt();
  }
}

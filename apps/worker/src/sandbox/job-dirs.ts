import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { isLeftBehind } from './left-behind.ts';

const PREFIX = 'quire-job-';
/** Written when a job starts: the sandbox child working in the folder. */
export const SANDBOX_PID_FILE = 'sandbox.pid';

/** A job's scratch folder (a copy of a customer's file), named after the worker that owns it. */
export function makeJobDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
}

/**
 * Removes the job folders of workers that are gone (killed, crashed), and kills any extraction child still
 * working in one. A folder whose worker still runs is left alone, whoever's it is; a folder from before
 * owners were named in it is removed only once it is older than `legacyStaleMs`.
 */
export async function sweepStaleJobDirs(
  logger: Pick<Logger, 'warn'>,
  legacyStaleMs: number,
  tmpDir = os.tmpdir(),
): Promise<number> {
  const names = (await fs.readdir(tmpDir).catch(() => [] as string[])).filter((n) => n.startsWith(PREFIX));
  let removed = 0;
  for (const name of names) {
    const dir = path.join(tmpDir, name);
    const owner = /^quire-job-(\d+)-/.exec(name)?.[1];
    if (!(await isLeftBehind(dir, owner === undefined ? undefined : Number(owner), legacyStaleMs))) continue;
    await killOrphanedChild(dir);
    await fs.rm(dir, { recursive: true, force: true });
    removed++;
  }
  if (removed > 0) logger.warn({ removed }, 'removed job folders left by workers that are gone');
  return removed;
}

async function killOrphanedChild(dir: string): Promise<void> {
  const pid = Number(await fs.readFile(path.join(dir, SANDBOX_PID_FILE), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 1) return;
  // Only if the pid is still an extraction child, not a process that reused the number.
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.includes('child-entry.mjs') && !cmdline.includes('sandbox-child.js')) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
}

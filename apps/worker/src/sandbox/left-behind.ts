import fs from 'node:fs/promises';

/**
 * Whether a scratch folder named after the process that made it (`ownerPid`) was left behind: its process is
 * gone. A folder from before owners were named in it (no `ownerPid`) counts once it is older than `legacyStaleMs`.
 */
export async function isLeftBehind(dir: string, ownerPid: number | undefined, legacyStaleMs: number): Promise<boolean> {
  return ownerPid !== undefined ? !isAlive(ownerPid) : olderThan(dir, legacyStaleMs);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function olderThan(dir: string, ms: number): Promise<boolean> {
  const info = await fs.stat(dir).catch(() => undefined);
  return !!info && info.mtimeMs < Date.now() - ms;
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { OCR_DIR_PREFIX, ocrDirPrefixOf } from '@quire/extract';
import { isLeftBehind } from './left-behind.ts';

/** Removes the OCR folders of a sandbox child that has ended: a child that is killed cannot remove its own. */
export async function removeOcrDirsOf(pid: number, tmpDir = os.tmpdir()): Promise<void> {
  const names = await fs.readdir(tmpDir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(ocrDirPrefixOf(pid)))
      .map((name) => fs.rm(path.join(tmpDir, name), { recursive: true, force: true }).catch(() => undefined)),
  );
}

/**
 * At worker start-up: removes the OCR folders of processes that are gone (children of a worker that was killed),
 * and unnamed ones from before folders were named after their process once older than `legacyStaleMs`.
 */
export async function sweepStaleOcrDirs(
  logger: Pick<Logger, 'warn'>,
  legacyStaleMs: number,
  tmpDir = os.tmpdir(),
): Promise<number> {
  const names = (await fs.readdir(tmpDir).catch(() => [] as string[])).filter((n) => n.startsWith(OCR_DIR_PREFIX));
  let removed = 0;
  for (const name of names) {
    const dir = path.join(tmpDir, name);
    const owner = new RegExp(`^${OCR_DIR_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (!(await isLeftBehind(dir, owner === undefined ? undefined : Number(owner), legacyStaleMs))) continue;
    await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removed++;
  }
  if (removed > 0) logger.warn({ removed }, 'removed OCR folders left by sandbox children that are gone');
  return removed;
}

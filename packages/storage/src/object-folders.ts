import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes the folders above `file` that are now empty, up to (not including) `rootDir`: a material's folder goes with
 * its last object, so aborted uploads and deleted materials leave no empty folders behind. A folder that is not empty
 * (another object, an upload being written) stays, and so do all above it.
 */
export async function removeEmptyFolders(file: string, rootDir: string): Promise<void> {
  const root = path.resolve(rootDir);
  for (let dir = path.dirname(path.resolve(file)); dir.startsWith(`${root}${path.sep}`); dir = path.dirname(dir)) {
    try {
      await fs.rmdir(dir);
    } catch {
      return;
    }
  }
}

/**
 * Opens `file` for writing with its folders made first. Made again if they vanish in between: another request may
 * have just removed them as empty (`removeEmptyFolders`).
 */
export async function openInNewFolders(file: string, flags: string): Promise<FileHandle> {
  for (let attempt = 1; ; attempt++) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    try {
      return await fs.open(file, flags);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw err;
    }
  }
}

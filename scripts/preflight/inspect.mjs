// Gathers the facts plan.mjs decides from. Cheap when everything is in place: two file stats and one run of
// `scripts/setup-system.sh --check` (bash and a few `command -v`, about 10 ms).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * @param {string} root the clone
 * @param {'start' | 'test'} mode
 * @param {Record<string, string | undefined>} env
 * @returns {import('./plan.mjs').Facts}
 */
export function inspectMachine(root, mode, env) {
  return {
    mode,
    env,
    nodeVersion: process.versions.node,
    dependenciesInstalledAt: dependenciesInstalledAt(root),
    lockfileChangedAt: fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
    missingPackages: missingPackages(root, mode, env),
    platform: process.platform,
    uid: process.getuid?.(),
    sudoAvailable: onPath('sudo', env),
  };
}

/** When `npm ci` (or `npm install`) last finished: it writes node_modules/.package-lock.json at its end. */
function dependenciesInstalledAt(root) {
  try {
    const { mtimeMs } = fs.statSync(path.join(root, 'node_modules', '.package-lock.json'));
    fs.accessSync(path.join(root, 'node_modules', '.bin', 'tsx'));
    return mtimeMs;
  } catch {
    return null;
  }
}

/** @returns {string[]} */
function missingPackages(root, mode, env) {
  const check = spawnSync('bash', [path.join(root, 'scripts', 'setup-system.sh'), '--check', mode], {
    env,
    encoding: 'utf8',
  });
  if (check.status === 0) return [];
  const listed = check.stdout.trim();
  if (check.status === 1 && listed) return listed.split(/\s+/);
  const cause = check.error ? `bash is needed: ${check.error.message}` : check.stderr.trim();
  throw new Error(`scripts/setup-system.sh --check ${mode} failed: ${cause}`);
}

/** @param {string} command @param {Record<string, string | undefined>} env */
export function onPath(command, env) {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && isExecutableFile(path.join(dir, command)));
}

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

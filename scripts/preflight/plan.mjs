// Decides what `npm start` or `npm test` must set up before it runs, from facts about the machine that
// inspect.mjs gathers. Pure, so that every case can be tested without installing anything.

// npm runs scripts from the package root, so this is the command as the user types it there.
const SETUP_SYSTEM = 'scripts/setup-system.sh';
export const NPM_CI_ARGS = ['ci', '--no-audit', '--no-fund', '--include=dev'];
// Without Redis `npm start` cannot run at all (Debian's name, then Homebrew's); the other packages of
// `start` only serve audio and video.
const NEEDED_TO_START = new Set(['redis-server', 'redis']);

/**
 * @typedef {object} Facts
 * @property {'start' | 'test'} mode
 * @property {Record<string, string | undefined>} env
 * @property {string} nodeVersion as process.versions.node
 * @property {number | null} dependenciesInstalledAt when `npm ci` last finished (ms), null when it has not
 * @property {number} lockfileChangedAt the mtime of package-lock.json (ms)
 * @property {string[]} missingPackages what `scripts/setup-system.sh --check <mode>` lists
 * @property {string} platform as process.platform
 * @property {number | undefined} uid as process.getuid()
 * @property {boolean} sudoAvailable whether `sudo` is on PATH
 *
 * @typedef {{ kind: 'system-packages', packages: string[], command: string[], announce: string,
 *   ifFailed: { problems: string[], warnings: string[] } }} SystemPackagesStep
 * @typedef {{ kind: 'npm-ci', announce: string, ifFailed: { problems: string[], warnings: string[] } }} NpmCiStep
 * @typedef {{ steps: (SystemPackagesStep | NpmCiStep)[], problems: string[], warnings: string[] }} Plan
 */

/** @param {Facts} facts @returns {Plan} */
export function planPreflight(facts) {
  /** @type {Plan} */
  const plan = { steps: [], problems: [], warnings: [] };
  const [major = 0, minor = 0] = facts.nodeVersion.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    plan.problems.push(
      `quire needs Node 20.19 or newer; this is v${facts.nodeVersion}. Install a current Node (https://nodejs.org), then run: npm ${facts.mode}`,
    );
    return plan;
  }
  const installing = !['1', 'true'].includes(facts.env.QUIRE_NO_INSTALL ?? '');
  planSystemPackages(facts, installing, plan);
  planDependencies(facts, installing, plan);
  return plan;
}

/** @param {Facts} facts @param {boolean} installing @param {Plan} plan */
function planSystemPackages(facts, installing, plan) {
  const packages = facts.missingPackages;
  if (packages.length === 0) return;
  const command = [SETUP_SYSTEM, facts.mode];
  const darwin = facts.platform === 'darwin';
  const root = facts.uid === 0;
  const withoutRoot = !darwin && !root && !facts.sudoAvailable;
  if (!installing || withoutRoot) {
    const advice = installing
      ? `Installing needs root, and sudo is not installed; as root, run: ${command.join(' ')}`
      : `Run: ${command.join(' ')}`;
    const said = sayMissing(facts, packages, advice);
    plan.problems.push(...said.problems);
    plan.warnings.push(...said.warnings);
    return;
  }
  const how = darwin ? 'with Homebrew' : root ? 'with apt-get' : 'with sudo apt-get (sudo may ask for your password)';
  plan.steps.push({
    kind: 'system-packages',
    packages,
    command,
    announce: `Installing the system packages ${facts.mode === 'start' ? 'quire needs' : 'the tests need'} ${how}: ${packages.join(' ')}`,
    ifFailed: sayMissing(facts, packages, `Installing them failed (see above); run: ${command.join(' ')}`),
  });
}

/**
 * What to say about packages that stay missing: for the tests all of them are needed; `npm start` cannot run
 * without Redis, but only warns about the packages that serve audio and video.
 * @param {Facts} facts @param {string[]} packages @param {string} advice
 */
function sayMissing(facts, packages, advice) {
  /** @type {{ problems: string[], warnings: string[] }} */
  const said = { problems: [], warnings: [] };
  if (facts.mode === 'test') {
    said.problems.push(`The tests need system packages that are missing: ${packages.join(', ')}. ${advice}`);
    return said;
  }
  const needed = packages.filter((name) => NEEDED_TO_START.has(name));
  const media = packages.filter((name) => !NEEDED_TO_START.has(name));
  if (needed.length) {
    said.problems.push(`${needed.join(', ')} is not installed. ${advice} (or set REDIS_URL to an existing Redis).`);
  }
  if (media.length) {
    said.warnings.push(`${media.join(', ')} not installed, so audio and video materials will end in error. ${advice}`);
  }
  return said;
}

/** @param {Facts} facts @param {boolean} installing @param {Plan} plan */
function planDependencies(facts, installing, plan) {
  const installedAt = facts.dependenciesInstalledAt;
  const reason =
    installedAt === null
      ? 'The dependencies are not installed'
      : facts.lockfileChangedAt > installedAt
        ? 'package-lock.json is newer than the installed dependencies'
        : null;
  if (reason === null) return;
  if (!installing) {
    plan.problems.push(`${reason}. Run: npm ci`);
    return;
  }
  plan.steps.push({
    kind: 'npm-ci',
    announce: `${reason}; installing them: npm ${NPM_CI_ARGS.join(' ')}`,
    ifFailed: { problems: [`npm ci failed (see above). Run it again when its cause is fixed: npm ci`], warnings: [] },
  });
}

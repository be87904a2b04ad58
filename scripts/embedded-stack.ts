import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '@quire/config';
import { startEmbeddedPostgres, startRedisServer, type RunningService } from '@quire/stack';
import getPort from 'get-port';
import type { Running, Supervisor } from './supervisor.ts';

export interface EmbeddedStack {
  /** Environment for the api and worker processes: the caller's, plus whatever was started here. */
  env: Record<string, string>;
  config: Config;
  started: string[];
  /** Forgets the stack's state file; the supervisor stops the services themselves. */
  stop(): Promise<void>;
}

const STATE_FILE = 'stack.json';

/**
 * Fills in what the environment leaves out: embedded Postgres without DATABASE_URL, redis-server without
 * REDIS_URL, local-disk storage (with a persisted signing secret) without S3_ENDPOINT. The servers started
 * are the supervisor's to keep running: each is restarted on the same port and data, so the api and worker
 * reconnect to it without a restart of their own.
 */
export async function startEmbeddedStack(
  supervisor: Supervisor,
  baseEnv: NodeJS.ProcessEnv = process.env,
): Promise<EmbeddedStack> {
  const base = loadConfig(baseEnv);
  const dataDir = base.dataDir;
  await fs.mkdir(dataDir, { recursive: true });
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(baseEnv).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const started: string[] = [];
  if (!base.database.url) {
    const options = { dataDir: path.join(dataDir, 'postgres'), port: await getPort() };
    let copiedTo: string | undefined;
    await supervisor.add({
      name: 'postgres',
      start: async () => {
        const postgres = await startEmbeddedPostgres(options);
        copiedTo = postgres.binariesCopiedTo;
        return supervised(postgres, (url) => (env.DATABASE_URL = url));
      },
    });
    started.push(
      `postgres (embedded, data in ${options.dataDir}${copiedTo ? `, run as user postgres from ${copiedTo}` : ''})`,
    );
  }
  if (!base.redis.url) {
    const options = { dataDir: path.join(dataDir, 'redis'), port: await getPort() };
    await supervisor.add({
      name: 'redis-server',
      start: async () => supervised(await startRedisServer(options), (url) => (env.REDIS_URL = url)),
    });
    started.push(`redis-server (${env.REDIS_URL})`);
  }
  if (base.storage.driver === 'local' && !base.storage.signingSecret) {
    env.STORAGE_SIGNING_SECRET = await persistentSecret(path.join(dataDir, 'signing-secret'));
  }
  await fs.writeFile(
    path.join(dataDir, STATE_FILE),
    JSON.stringify({ DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL, pid: process.pid }),
  );
  return {
    env,
    config: loadConfig(env),
    started,
    async stop() {
      await fs.rm(path.join(dataDir, STATE_FILE), { force: true });
    },
  };
}

function supervised(service: RunningService, onUrl: (url: string) => void): Running {
  onUrl(service.url);
  return { exited: service.exited ?? new Promise<string>(() => {}), stop: () => service.stop() };
}

/** The URLs of a stack `npm start` is running now, so the admin CLI can reach the same database. */
export async function runningStackEnv(config: Config): Promise<Record<string, string> | undefined> {
  const raw = await fs.readFile(path.join(config.dataDir, STATE_FILE), 'utf8').catch(() => undefined);
  if (!raw) return undefined;
  const state = JSON.parse(raw) as { DATABASE_URL?: string; REDIS_URL?: string; pid: number };
  try {
    process.kill(state.pid, 0);
  } catch {
    return undefined;
  }
  return Object.fromEntries(Object.entries(state).filter(([k, v]) => k !== 'pid' && typeof v === 'string')) as Record<
    string,
    string
  >;
}

async function persistentSecret(file: string): Promise<string> {
  const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (existing?.trim()) return existing.trim();
  const secret = randomBytes(32).toString('hex');
  await fs.writeFile(file, secret, { mode: 0o600 });
  return secret;
}

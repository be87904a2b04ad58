import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import { createApiContext, generateApiKey, startServer, type ApiContext } from '@quire/api';
import { loadConfig, type Config } from '@quire/config';
import { createGroup, createOrganization, createDb, insertApiKey, type Db } from '@quire/db';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import { createWorkerContext, startWorker, type RunningWorker } from '@quire/worker';
import getPort from 'get-port';
import { pino } from 'pino';

export type StorageDriver = 'local' | 's3';

export interface TestStack {
  url: string;
  /** The environment the stack was configured from, for starting api/worker processes like it. */
  env: Record<string, string>;
  config: Config;
  db: Db;
  store: ObjectStore;
  api: ApiContext;
  worker?: RunningWorker;
  /** A new organization with a fresh key (tenants never share data, so tests need no cleanup). */
  newTenant(options?: { group?: { planValidFrom?: Date; planValidUntil?: Date } }): Promise<Tenant>;
  close(): Promise<void>;
}

export interface Tenant {
  organizationId: string;
  groupId?: string;
  apiKey: string;
  keyId: string;
  /** fetch against the api with this tenant's key. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
}

export interface TestStackOptions {
  storage?: StorageDriver;
  /** Start an in-process worker (default true). */
  worker?: boolean;
  config?: Partial<Record<string, string>>;
}

/**
 * The real api (and worker) against the run's Postgres, Redis and storage, isolated from other test files
 * by its own queue prefix and storage prefix.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const isolation = `t${randomBytes(5).toString('hex')}`;
  const storage = options.storage ?? 'local';
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: isolation,
    STORAGE_KEY_PREFIX: `${isolation}/`,
    STORAGE_DIR: path.join(inject('dataDir'), 'storage'),
    STORAGE_SIGNING_SECRET: 'test-signing-secret-0123456789',
    PROCESSING_STALE_MS: '600000',
    WORKER_CONCURRENCY: '2',
    ...(storage === 's3'
      ? {
          S3_ENDPOINT: new URL(inject('s3Endpoint')).hostname,
          S3_PORT: new URL(inject('s3Endpoint')).port,
          S3_ACCESS_KEY: 'S3RVER',
          S3_SECRET_KEY: 'S3RVER',
          S3_BUCKET: inject('s3Bucket'),
        }
      : {}),
    ...options.config,
  };
  const port = await getPort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({ ...env, PUBLIC_URL: url, PORT: String(port) });
  const db = createDb(config.DATABASE_URL!, { poolSize: 5 });
  const logger = pino({ level: config.LOG_LEVEL });
  const store = await createObjectStore(config);
  const api = await createApiContext(config, { db, logger, store });
  await api.waiter.ready();
  const server = await startServer(api, port, '127.0.0.1');

  let worker: RunningWorker | undefined;
  let workerCtx: Awaited<ReturnType<typeof createWorkerContext>> | undefined;
  if (options.worker !== false) {
    workerCtx = await createWorkerContext(config, { db, logger, store });
    worker = startWorker(workerCtx);
  }

  return {
    url,
    env: { ...env, PUBLIC_URL: url, PORT: String(port) },
    config,
    db,
    store,
    api,
    worker,
    async newTenant(tenantOptions = {}) {
      const org = await createOrganization(db, `Org ${isolation}`);
      let groupId: string | undefined;
      if (tenantOptions.group) {
        groupId = (await createGroup(db, { organizationId: org.id, name: 'Group', ...tenantOptions.group })).id;
      }
      const key = generateApiKey();
      const row = await insertApiKey(db, { organizationId: org.id, groupId, prefix: key.prefix, keyHash: key.hash });
      return {
        organizationId: org.id,
        groupId,
        apiKey: key.apiKey,
        keyId: row.id,
        request: (pathname, init = {}) =>
          fetch(`${url}${pathname}`, { ...init, headers: { 'x-api-key': key.apiKey, ...(init.headers as Record<string, string>) } }),
      };
    },
    async close() {
      await worker?.stop(5_000);
      await workerCtx?.close();
      await server.close(1_000);
      await api.close();
      await db.destroy();
    },
  };
}

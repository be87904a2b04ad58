import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import { createApiContext, generateApiKey, startServer, type ApiContext } from '@quire/api';
import { createQuireClient, type QuireClient } from '@quire/client';
import { loadServiceConfig, type ServiceConfig } from '@quire/config';
import {
  changeAuthAndWait,
  createGroup,
  createOrganization,
  createDb,
  insertApiKey,
  revokeApiKey,
  type Db,
} from '@quire/db';
import { createObjectStore, type ObjectStore } from '@quire/storage';
import {
  createWorkerContext,
  startWorker,
  startWorkerHttpServer,
  type RunningWorker,
  type WorkerContext,
  type WorkerHttpServer,
} from '@quire/worker';
import getPort from 'get-port';
import type { DestinationStream } from 'pino';
import { OpenApiResponseChecker } from './openapi-responses.ts';

export type StorageDriver = 'local' | 's3';

export interface TestStack {
  url: string;
  /** The environment the stack was configured from, for starting api/worker processes like it. */
  env: Record<string, string>;
  config: ServiceConfig;
  db: Db;
  store: ObjectStore;
  api: ApiContext;
  worker?: RunningWorker;
  workerContext?: WorkerContext;
  /** The in-process worker's own HTTP server (`/metrics`, `/healthz`), once a worker runs. */
  workerHttp?: WorkerHttpServer;
  /** Starts the in-process worker (for stacks made with `worker: false` that need it later). */
  startWorker(): Promise<RunningWorker>;
  /** A new organization with a fresh key (tenants never share data, so tests need no cleanup). */
  newTenant(options?: { group?: { planValidFrom?: Date; planValidUntil?: Date } }): Promise<Tenant>;
  /** Another key of an existing organization, for one of its groups or for none. */
  newKey(organizationId: string, groupId?: string): Promise<Tenant>;
  /** Revokes a key as the admin CLI does: returns once every api process has dropped it from its cache. */
  revokeKey(keyId: string): Promise<void>;
  close(): Promise<void>;
}

export interface Tenant {
  organizationId: string;
  groupId?: string;
  apiKey: string;
  keyId: string;
  /** fetch against the api with this tenant's key; every answer is checked against the OpenAPI document. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** The typed client (`@quire/client`) with this tenant's key, its answers checked the same way. */
  client: QuireClient;
}

export interface TestStackOptions {
  storage?: StorageDriver;
  /** Start an in-process worker (default true). */
  worker?: boolean;
  config?: Partial<Record<string, string>>;
  /** Where the api's and worker's logs go (they are silent unless TEST_LOG_LEVEL is set). */
  logStream?: DestinationStream;
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
    WORKER_METRICS_PORT: '0',
    WORKER_CONCURRENCY: '2',
    // A test reading usage events would otherwise find the API calls it made itself; those that study them turn it on.
    API_CALL_EVENTS: 'off',
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
  const config = loadServiceConfig({ ...env, PUBLIC_URL: url, PORT: String(port) });
  const db = createDb(config.database.url, { poolSize: 5 });
  const store = await createObjectStore(config);
  const api = await createApiContext(config, { db, store, logDestination: options.logStream });
  await api.waiter.ready();
  const server = await startServer(api, port, '127.0.0.1');
  const responses = new OpenApiResponseChecker();

  const newKey = async (organizationId: string, groupId?: string): Promise<Tenant> => {
    const key = generateApiKey();
    const row = await insertApiKey(db, { organizationId, groupId, prefix: key.prefix, keyHash: key.hash });
    return {
      organizationId,
      groupId,
      apiKey: key.apiKey,
      keyId: row.id,
      request: (pathname, init = {}) =>
        responses.fetch(`${url}${pathname}`, {
          ...init,
          headers: { 'x-api-key': key.apiKey, ...(init.headers as Record<string, string>) },
        }),
      client: createQuireClient({ baseUrl: url, apiKey: key.apiKey, fetch: (request) => responses.fetch(request) }),
    };
  };

  const stack: TestStack = {
    url,
    env: { ...env, PUBLIC_URL: url, PORT: String(port) },
    config,
    db,
    store,
    api,
    async startWorker() {
      if (stack.worker) return stack.worker;
      stack.workerContext = await createWorkerContext(config, { db, store, logDestination: options.logStream });
      stack.worker = startWorker(stack.workerContext);
      await stack.worker.cancelsHeard;
      stack.workerHttp = await startWorkerHttpServer(stack.workerContext, stack.worker, 0, '127.0.0.1');
      return stack.worker;
    },
    async newTenant(tenantOptions = {}) {
      const org = await createOrganization(db, `Org ${isolation}`);
      let groupId: string | undefined;
      if (tenantOptions.group) {
        groupId = (await createGroup(db, { organizationId: org.id, name: 'Group', ...tenantOptions.group })).id;
      }
      return newKey(org.id, groupId);
    },
    newKey,
    async revokeKey(keyId) {
      await changeAuthAndWait(config.database.url, { kind: 'key', id: keyId }, () => revokeApiKey(db, keyId));
    },
    async close() {
      await stack.worker?.stop(5_000);
      await stack.workerHttp?.close();
      await stack.workerContext?.close();
      await server.close(1_000);
      await api.close();
      await db.destroy();
    },
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}

/** The local-disk driver's settings of a stack started with it, for tests that look at the stored files themselves. */
export function localStorageOf(stack: Pick<TestStack, 'config'>) {
  const { storage } = stack.config;
  if (storage.driver !== 'local') throw new Error('this test needs the local storage driver');
  return { dir: storage.dir, keyPrefix: storage.keyPrefix, signingSecret: storage.signingSecret! };
}

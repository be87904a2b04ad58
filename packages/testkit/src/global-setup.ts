import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb, migrateToLatest } from '@quire/db';
import { startEmbeddedPostgres, startRedisServer, startS3Server } from '@quire/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    s3Endpoint: string;
    s3Bucket: string;
    dataDir: string;
  }
}

const S3_BUCKET = 'quire-test';

/** Starts one real Postgres, Redis and S3 server for the whole run and migrates once. */
export default async function setup(project: TestProject) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-test-'));
  // Postgres runs as its own user when we are root; it must be able to create its directory here.
  await fs.chmod(dataDir, 0o777);
  const [postgres, redis, s3] = await Promise.all([
    startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') }),
    startRedisServer(),
    startS3Server({ directory: path.join(dataDir, 's3'), bucket: S3_BUCKET }),
  ]);
  const db = createDb(postgres.url);
  await migrateToLatest(db);
  await db.destroy();

  project.provide('databaseUrl', postgres.url);
  project.provide('redisUrl', redis.url);
  project.provide('s3Endpoint', s3.url);
  project.provide('s3Bucket', S3_BUCKET);
  project.provide('dataDir', dataDir);

  return async () => {
    await Promise.allSettled([postgres.stop(), redis.stop(), s3.stop()]);
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrateToLatest } from '@quire/db';
import { startEmbeddedPostgres, startRedisServer, startS3Server, type RunningService } from '@quire/stack';
import { startTestStack, waitUntil, type TestStack } from '@quire/testkit';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

const textMaterial = (timeoutMs = 20_000) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'r', content: { text: 'survives a Redis restart' }, timeoutMs, pollIntervalMs: 500 }),
});

describe('Redis going away', () => {
  it('answers 503 quickly while it is down, and work continues once it is back', async () => {
    const port = await getPort();
    let redis: RunningService = await startRedisServer({ port });
    cleanup.push(() => redis.stop());
    const stack: TestStack = await startTestStack({ config: { REDIS_URL: redis.url } });
    cleanup.push(() => stack.close());
    const tenant = await stack.newTenant();
    expect((await tenant.request('/api/v1/materials/upload-and-process', textMaterial())).status).toBe(201);

    await redis.stop();
    const started = Date.now();
    const down = await tenant.request('/api/v1/materials/upload-and-process', textMaterial());
    expect(down.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await down.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(down.headers.get('retry-after')).toBeTruthy();
    const ready = await fetch(`${stack.url}/readyz`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.redis).toMatch(/unavailable/);
    // The refused material was withdrawn, not left behind in processing.
    const listed = await (await tenant.request('/api/v1/materials?limit=200')).json();
    expect(listed.materials.every((m: { status: string }) => m.status === 'active')).toBe(true);

    redis = await startRedisServer({ port });
    await waitUntil(
      async () => (await fetch(`${stack.url}/readyz`)).status === 200,
      30_000,
      'readiness after Redis is back',
    );
    const back = await tenant.request('/api/v1/materials/upload-and-process', textMaterial());
    expect(back.status).toBe(201);
    expect((await back.json()).status).toBe('active');
  });

  it('a request waiting on processing answers (201 or 202) when Redis restarts under it', async () => {
    const port = await getPort();
    let redis: RunningService = await startRedisServer({ port });
    cleanup.push(() => redis.stop());
    const stack = await startTestStack({ worker: false, config: { REDIS_URL: redis.url } });
    cleanup.push(() => stack.close());
    const tenant = await stack.newTenant();

    const waiting = tenant.request('/api/v1/materials/upload-and-process', textMaterial(6_000));
    await new Promise((r) => setTimeout(r, 1000));
    await redis.stop();
    await new Promise((r) => setTimeout(r, 1000));
    redis = await startRedisServer({ port });
    const res = await waiting;
    expect([201, 202]).toContain(res.status);
  });
});

describe('Postgres restarting', () => {
  it('answers 503 without internals while it is down and recovers without an api restart', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pg-restart-'));
    await fs.chmod(dataDir, 0o777);
    cleanup.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const port = await getPort();
    let postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port });
    cleanup.push(() => postgres.stop());
    const db = createDb(postgres.url);
    await migrateToLatest(db);
    await db.destroy();

    const stack = await startTestStack({ worker: false, config: { DATABASE_URL: postgres.url } });
    cleanup.push(() => stack.close());
    const tenant = await stack.newTenant();
    expect((await tenant.request('/api/v1/materials')).status).toBe(200);

    await postgres.stop();
    const down = await tenant.request('/api/v1/materials');
    expect(down.status).toBe(503);
    const body = await down.json();
    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|at \w+ \(|node_modules/);
    expect((await (await fetch(`${stack.url}/readyz`)).json()).checks.postgres).toMatch(/unavailable/);

    postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port });
    await waitUntil(
      async () => (await tenant.request('/api/v1/materials')).status === 200,
      30_000,
      'the api to reconnect',
    );
  });
});

describe('object storage going away', () => {
  it('answers 503 for uploads while S3 is down, reports it in /readyz, and recovers', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-s3-restart-'));
    cleanup.push(() => fs.rm(dir, { recursive: true, force: true }));
    const port = await getPort();
    const bucket = 'outage';
    let s3 = await startS3Server({ directory: dir, bucket, port });
    cleanup.push(() => s3.stop());
    const stack = await startTestStack({
      worker: false,
      config: {
        S3_ENDPOINT: '127.0.0.1',
        S3_PORT: String(port),
        S3_ACCESS_KEY: 'S3RVER',
        S3_SECRET_KEY: 'S3RVER',
        S3_BUCKET: bucket,
      },
    });
    cleanup.push(() => stack.close());
    const tenant = await stack.newTenant();
    const upload = () => {
      const form = new FormData();
      form.append('name', 'stored');
      form.append('file', new Blob(['some words']), 'a.txt');
      return tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
    };
    expect((await upload()).status).toBe(201);

    await s3.stop();
    const down = await upload();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(JSON.stringify(await down.json())).not.toMatch(/ECONNREFUSED|at \w+ \(|node_modules/);
    expect((await (await fetch(`${stack.url}/readyz`)).json()).checks.storage).toMatch(/unavailable/);
    // Listing needs only Postgres, so it keeps working, and the failed upload left no material behind.
    expect((await (await tenant.request('/api/v1/materials')).json()).totalCount).toBe(1);

    s3 = await startS3Server({ directory: dir, bucket, port });
    await waitUntil(async () => (await fetch(`${stack.url}/readyz`)).status === 200, 30_000, 'storage readiness');
    expect((await upload()).status).toBe(201);
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import getPort from 'get-port';
import { sql } from 'kysely';
import { changeAuthAndWait } from '@quire/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parsePrometheusText,
  sampleValue,
  spawnService,
  startTestStack,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

interface Api {
  url: string;
  pid: number;
}

let stack: TestStack;
let second: ServiceProcess;
let apis: Api[];

// A cache entry would outlive every test here on its own: a refusal can only come from the revocation reaching the process.
const config = { API_KEY_CACHE_TTL_MS: '600000' };

beforeAll(async () => {
  stack = await startTestStack({ worker: false, config });
  const port = await getPort();
  const url = `http://127.0.0.1:${port}`;
  second = spawnService('api', { ...stack.env, ...config, PORT: String(port), PUBLIC_URL: url });
  apis = [
    { url: stack.url, pid: process.pid },
    { url, pid: second.child.pid! },
  ];
  for (const api of apis)
    await waitUntil(() => listening(api), 60_000, `the api at ${api.url} to listen for revocations`);
});
afterAll(async () => {
  second?.child.kill('SIGTERM');
  await second?.exited;
  await stack?.close();
});

const metrics = async (api: Api) => parsePrometheusText(await (await fetch(`${api.url}/metrics`)).text());
const listening = async (api: Api) =>
  sampleValue(await metrics(api).catch(() => []), 'quire_api_key_revocations_listening') === 1;
const cacheHits = async (api: Api) =>
  sampleValue(await metrics(api), 'quire_api_key_lookups_total', { source: 'cache' });

const statusOn = async (api: Api, tenant: Tenant) =>
  (await fetch(`${api.url}/api/v1/materials`, { headers: { 'x-api-key': tenant.apiKey } })).status;

/** Every api answers the key from its cache: the refusal that follows is the cache entry dropped, not a miss. */
async function servedFromCache(tenant: Tenant) {
  for (const api of apis) {
    expect(await statusOn(api, tenant)).toBe(200);
    const before = await cacheHits(api);
    expect(await statusOn(api, tenant)).toBe(200);
    expect(await cacheHits(api)).toBe(before + 1);
  }
}

const admin = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/admin.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: stack.env.DATABASE_URL, LOG_LEVEL: 'silent' },
  });

describe('a cached API key, with two api processes', () => {
  it('is refused by each process on its very next request once the admin CLI revokes it', async () => {
    const tenant = await stack.newTenant();
    const other = await stack.newKey(tenant.organizationId);
    await servedFromCache(tenant);
    await servedFromCache(other);

    const { stdout } = await admin('key', 'revoke', '--id', tenant.keyId);
    expect(JSON.parse(stdout)).toEqual({ id: tenant.keyId, revoked: true });

    for (const api of apis) {
      const refused = await fetch(`${api.url}/api/v1/materials`, { headers: { 'x-api-key': tenant.apiKey } });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: 'Unauthorized' });
      // The organization's other key is untouched, and still cached.
      const hits = await cacheHits(api);
      expect(await statusOn(api, other)).toBe(200);
      expect(await cacheHits(api)).toBe(hits + 1);
    }
  });

  it('is refused when revoked while the processes had lost their subscription, and the cache is trusted again once resubscribed', async () => {
    const tenant = await stack.newTenant();
    await servedFromCache(tenant);

    // Both listeners are cut and the key revoked before either can listen again: neither hears the revocation.
    await stack.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ killed: boolean }>`
        select pg_terminate_backend(pid) as killed from pg_stat_activity
        where application_name like any(${apis.map((a) => `quire-auth-listener:${a.pid}.%`)})`.execute(trx);
      expect(rows).toEqual([{ killed: true }, { killed: true }]);
      await trx.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', tenant.keyId).execute();
    });
    for (const api of apis) expect(await statusOn(api, tenant)).toBe(403);

    for (const api of apis) await waitUntil(() => listening(api), 30_000, `the api at ${api.url} to listen again`);
    const fresh = await stack.newTenant();
    await servedFromCache(fresh);
  });

  it('is refused once its organization is removed', async () => {
    const tenant = await stack.newTenant();
    await servedFromCache(tenant);

    // Removed as any writer would, e.g. an operator in psql; waiting as the admin CLI does until every process heard it.
    const { listeners, unheard } = await changeAuthAndWait(
      stack.env.DATABASE_URL!,
      { kind: 'organization', id: tenant.organizationId },
      () =>
        stack.db.transaction().execute(async (trx) => {
          await trx.deleteFrom('api_keys').where('organization_id', '=', tenant.organizationId).execute();
          await trx.deleteFrom('organizations').where('id', '=', tenant.organizationId).execute();
        }),
    );
    expect(listeners).toBeGreaterThanOrEqual(2);
    expect(unheard).toEqual([]);
    for (const api of apis) expect(await statusOn(api, tenant)).toBe(403);
  });
});

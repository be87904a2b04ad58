import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, startTestStack, type Tenant, type TestHttpServer, type TestStack } from '@quire/testkit';

/**
 * URL materials through the real api and worker. `target` plays an internal service: every URL below
 * would reach it if the fetch were not refused, so a refusal must leave it without a single hit.
 */
let stack: TestStack;
let tenant: Tenant;
let target: TestHttpServer;
let allowed: TestHttpServer;

beforeAll(async () => {
  target = await startHttpServer({ '/': (_req, res) => res.end('internal secret') });
  allowed = await startHttpServer({
    '/to-internal': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end(),
    '/to-metadata': (_req, res) => res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  });
  stack = await startTestStack({
    config: { URL_FETCH_ALLOW_HOSTS: `127.0.0.1:${allowed.port}`, URL_FETCH_TIMEOUT_MS: '5000' },
  });
  tenant = await stack.newTenant();
});
afterAll(async () => {
  await stack?.close();
  await target?.close();
  await allowed?.close();
});

async function uploadUrl(url: string) {
  const res = await tenant.request('/api/v1/materials/upload-and-process', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ssrf probe', content: { url }, timeoutMs: 60_000 }),
  });
  return { status: res.status, body: await res.json() };
}

function expectRefused(reply: {
  status: number;
  body: { message: string; material: { status: string; metadata: { error: { code: string } } } };
}) {
  expect(reply.status).toBe(422);
  expect(reply.body.material.status).toBe('error');
  expect(reply.body.material.metadata.error.code).toBe('FETCH_FAILED');
  expect(reply.body.message).toMatch(/^Refused to fetch .*not a public address/);
}

describe('SSRF: URL materials never reach non-public addresses', () => {
  const port = () => target.port;
  const cases: [string, () => string][] = [
    ['loopback 127.0.0.1', () => `http://127.0.0.1:${port()}/`],
    ['localhost (a name resolving to loopback)', () => `http://localhost:${port()}/`],
    ['0.0.0.0', () => `http://0.0.0.0:${port()}/`],
    ['[::1]', () => `http://[::1]:${port()}/`],
    ['[::ffff:127.0.0.1] (IPv4-mapped IPv6)', () => `http://[::ffff:127.0.0.1]:${port()}/`],
    ['decimal IPv4 2130706433', () => `http://2130706433:${port()}/`],
    ['hex IPv4 0x7f000001', () => `http://0x7f000001:${port()}/`],
    ['octal IPv4 0177.0.0.1', () => `http://0177.0.0.1:${port()}/`],
    ['sourceUrl on loopback', () => `http://127.0.0.1:${port()}/`],
  ];
  it.each(cases)('refuses %s with FETCH_FAILED and the target sees no request', async (label, url) => {
    target.hits.length = 0;
    const reply = label.startsWith('sourceUrl')
      ? await tenant
          .request('/api/v1/materials/upload-and-process', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'ssrf probe', content: { sourceUrl: url() }, timeoutMs: 60_000 }),
          })
          .then(async (res) => ({ status: res.status, body: await res.json() }))
      : await uploadUrl(url());
    expectRefused(reply);
    expect(target.hits).toEqual([]);
  });

  it('refuses the cloud metadata address 169.254.169.254', async () => {
    expectRefused(await uploadUrl('http://169.254.169.254/latest/meta-data/iam/security-credentials/'));
  });

  it('refuses a redirect from an allowed host to a private address, and to the metadata address', async () => {
    target.hits.length = 0;
    const internal = await uploadUrl(`http://127.0.0.1:${allowed.port}/to-internal`);
    expectRefused(internal);
    expect(internal.body.message).toContain(`http://127.0.0.1:${target.port}/`);
    expect(target.hits).toEqual([]);
    expect(allowed.hits).toContain('/to-internal');

    const metadata = await uploadUrl(`http://127.0.0.1:${allowed.port}/to-metadata`);
    expectRefused(metadata);
    expect(metadata.body.message).toContain('169.254.169.254');
  });

  it('the same target is reachable through the allow list, so the refusals above are the policy at work', async () => {
    const own = await startTestStack({ config: { URL_FETCH_ALLOW_HOSTS: `127.0.0.1:${target.port}` } });
    try {
      const t = await own.newTenant();
      target.hits.length = 0;
      const res = await t.request('/api/v1/materials/upload-and-process', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'allowed internal',
          content: { url: `http://127.0.0.1:${target.port}/` },
          timeoutMs: 60_000,
        }),
      });
      expect(res.status).toBe(201);
      expect((await res.json()).metadata.extractedText).toBe('internal secret');
      expect(target.hits).toEqual(['/']);
    } finally {
      await own.close();
    }
  });
});

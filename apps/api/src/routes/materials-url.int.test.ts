import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makePdf,
  startHttpServer,
  startTestStack,
  type Tenant,
  type TestHttpServer,
  type TestStack,
} from '@quire/testkit';

const MAX_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 3000;

const PAGE = `<!doctype html><html><head><title>Photosynthesis &amp; You</title><script>var tracking = 1;</script></head>
<body><nav><a href="/">Home</a> <a href="/courses">Courses</a></nav>
<h1>Photosynthesis</h1><p>Plants turn <a href="/light">light</a> into chemical energy.</p></body></html>`;

let stack: TestStack;
let tenant: Tenant;
let web: TestHttpServer;
let pdf: Buffer;
let site: string;

beforeAll(async () => {
  pdf = await makePdf(['The first page is about seeds.', 'The second page is about roots.'], {
    title: 'Botany by URL',
  });
  web = await startHttpServer({
    '/lesson.html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
    '/files/roots.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf),
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 4; i++) res.write('x'.repeat(MAX_BYTES / 2));
      res.end();
    },
    '/never-ends': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the start of a body that never finishes');
    },
  });
  site = `http://127.0.0.1:${web.port}`;
  stack = await startTestStack({
    config: {
      URL_FETCH_ALLOW_HOSTS: `127.0.0.1:${web.port}`,
      URL_FETCH_MAX_BYTES: String(MAX_BYTES),
      URL_FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
    },
  });
  tenant = await stack.newTenant();
});
afterAll(async () => {
  await stack?.close();
  await web?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  tenant.request(`/api/v1/materials${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function waitForStatus(id: string, statuses: string[], timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const material = await (await tenant.request(`/api/v1/materials/${id}`)).json();
    if (statuses.includes(material.status) || Date.now() > deadline) return material;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('URL materials through POST /upload-and-process', () => {
  it('turns an HTML page into a text material with its title and readable text', async () => {
    const res = await post('/upload-and-process', { name: 'Lesson', content: { url: `${site}/lesson.html` } });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m).toMatchObject({
      status: 'active',
      contentType: 'text',
      metadata: { title: 'Photosynthesis & You', format: 'html' },
    });
    expect(m.content.url).toBe(`${site}/lesson.html`);
    expect(m.metadata.extractedText).toBe('Photosynthesis\n\nPlants turn light into chemical energy.');
  });

  it('processes a PDF served by URL as a PDF and keeps the original downloadable', async () => {
    const res = await post('/upload-and-process', { name: 'Roots', content: { url: `${site}/files/roots.pdf` } });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m).toMatchObject({
      status: 'active',
      contentType: 'pdf',
      content: {
        url: `${site}/files/roots.pdf`,
        filename: 'roots.pdf',
        fileSize: pdf.length,
        mimeType: 'application/pdf',
      },
      metadata: { pageCount: 2, title: 'Botany by URL' },
      usage: { storageBytes: pdf.length },
    });
    expect(m.content.s3Key).toBe(`${tenant.organizationId}/${m._id}/original`);
    expect(m.metadata.extractedText).toContain('The second page is about roots.');
    const original = await fetch(m.content.s3Url);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('answers 400 when content.type says pdf but the URL returns HTML', async () => {
    const res = await post('/upload-and-process', {
      name: 'Claimed pdf',
      content: { url: `${site}/lesson.html`, type: 'pdf' },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toMatch(/content\.type is "pdf" but .* returned text\/html/);
    expect(body.material).toMatchObject({
      status: 'error',
      metadata: { error: { code: 'UNSUPPORTED', claimedType: 'pdf', detectedType: 'text' } },
    });
  });

  it('answers 422 TOO_LARGE for a body over the size cap', async () => {
    const res = await post('/upload-and-process', { name: 'Huge', content: { url: `${site}/huge` } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.material.metadata.error).toEqual({
      code: 'TOO_LARGE',
      message: `${site}/huge is larger than the limit of ${MAX_BYTES} bytes`,
    });
    expect(body.material.usage.storageBytes).toBe(0);
  });

  it('answers 422 FETCH_FAILED at the time cap for a server that never finishes', async () => {
    web.abandoned.length = 0;
    const res = await post('/upload-and-process', { name: 'Slow', content: { url: `${site}/never-ends` } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.material.metadata.error).toEqual({
      code: 'FETCH_FAILED',
      message: `Fetching ${site}/never-ends timed out after ${FETCH_TIMEOUT_MS} ms`,
    });
    expect(body.material.metadata.processingMs).toBeGreaterThanOrEqual(FETCH_TIMEOUT_MS);
    await expect.poll(() => web.abandoned).toEqual(['/never-ends']);
  });

  it('answers 422 FETCH_FAILED naming the status for a 404', async () => {
    const res = await post('/upload-and-process', { name: 'Missing', content: { sourceUrl: `${site}/nothing-here` } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.message).toBe(`${site}/nothing-here answered 404 Not Found`);
    expect(body.material).toMatchObject({ status: 'error', metadata: { error: { code: 'FETCH_FAILED' } } });
  });
});

describe('POST /upload/url', () => {
  it('answers 201 with the material in processing, and processing makes it active', async () => {
    const res = await post('/upload/url', { name: 'Lesson by URL', url: `${site}/lesson.html` });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m).toMatchObject({
      name: 'Lesson by URL',
      organizationId: tenant.organizationId,
      status: 'processing',
      folderId: null,
      references: [],
      content: { url: `${site}/lesson.html` },
    });
    const done = await waitForStatus(m._id, ['active', 'error']);
    expect(done).toMatchObject({ status: 'active', contentType: 'text', metadata: { title: 'Photosynthesis & You' } });
  });

  it('ends in error with FETCH_FAILED when the URL cannot be fetched', async () => {
    const m = await (await post('/upload/url', { name: 'Gone', url: `${site}/gone` })).json();
    const done = await waitForStatus(m._id, ['active', 'error']);
    expect(done).toMatchObject({
      status: 'error',
      metadata: { error: { code: 'FETCH_FAILED', message: `${site}/gone answered 404 Not Found` } },
    });
  });
});

describe('POST /upload/url-and-process', () => {
  it('waits and answers 201 with the active material and its references', async () => {
    const references = [{ title: 'Syllabus', url: 'https://example.org/syllabus' }];
    const res = await post('/upload/url-and-process', {
      url: `${site}/files/roots.pdf`,
      name: 'Roots again',
      references,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      name: 'Roots again',
      status: 'active',
      contentType: 'pdf',
      references,
      metadata: { pageCount: 2 },
    });
  });

  it('answers 422 with the material when fetching fails', async () => {
    const res = await post('/upload/url-and-process', { url: `${site}/missing.pdf`, name: 'Missing' });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      material: { status: 'error', metadata: { error: { code: 'FETCH_FAILED' } } },
    });
  });

  it('answers 202 with a Location when processing outlasts timeoutMs, and processing goes on', async () => {
    const res = await post('/upload/url-and-process', {
      url: `${site}/never-ends`,
      name: 'Slow',
      timeoutMs: 1000,
      pollIntervalMs: 100,
    });
    expect(res.status).toBe(202);
    const m = await res.json();
    expect(m.status).toBe('processing');
    expect(res.headers.get('location')).toBe(`${stack.url}/api/v1/materials/${m._id}`);
    const done = await waitForStatus(m._id, ['active', 'error']);
    expect(done.metadata.error.code).toBe('FETCH_FAILED');
  });
});

describe('validation and idempotency of the URL endpoints', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing url', { name: 'x' }, 'url'],
    ['missing name', { url: 'https://example.org/a' }, 'name'],
    ['non-http scheme', { name: 'x', url: 'ftp://example.org/a.pdf' }, 'url'],
    ['javascript: URL', { name: 'x', url: 'javascript:alert(1)' }, 'url'],
    ['file: URL', { name: 'x', url: 'file:///etc/passwd' }, 'url'],
    ['not a URL', { name: 'x', url: 'example.org/a' }, 'url'],
    ['unknown field', { name: 'x', url: 'https://example.org/a', content: { text: 'a' } }, 'content'],
  ];
  for (const endpoint of ['/upload/url', '/upload/url-and-process']) {
    it.each(cases)(`${endpoint}: %s is 400 naming the field`, async (_label, body, field) => {
      const res = await post(endpoint, body);
      expect(res.status).toBe(400);
      const error = await res.json();
      expect(error).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(error.message).toContain(field);
    });
  }

  it('/upload/url takes no wait options or references, /upload/url-and-process bounds its wait options', async () => {
    expect((await post('/upload/url', { name: 'x', url: 'https://example.org/a', timeoutMs: 5000 })).status).toBe(400);
    expect((await post('/upload/url', { name: 'x', url: 'https://example.org/a', references: [] })).status).toBe(400);
    expect(
      (await post('/upload/url-and-process', { name: 'x', url: 'https://example.org/a', timeoutMs: 10 })).status,
    ).toBe(400);
    expect(
      (await post('/upload/url-and-process', { name: 'x', url: 'https://example.org/a', pollIntervalMs: 60_001 }))
        .status,
    ).toBe(400);
  });

  it('replays a retried request with the same Idempotency-Key and refuses the key for a different request', async () => {
    for (const endpoint of ['/upload/url', '/upload/url-and-process']) {
      const body = { name: `Once via ${endpoint}`, url: `${site}/lesson.html` };
      const key = `url-once-${endpoint}`;
      const first = await post(endpoint, body, { 'idempotency-key': key });
      expect(first.status).toBe(201);
      const created = await first.json();
      const retry = await post(endpoint, body, { 'idempotency-key': key });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await retry.json())._id).toBe(created._id);
      const listed = await (await tenant.request(`/api/v1/materials?search=${encodeURIComponent(body.name)}`)).json();
      expect(listed.totalCount).toBe(1);

      const other = await post(endpoint, { ...body, name: 'something else' }, { 'idempotency-key': key });
      expect(other.status).toBe(422);
    }
  });
});

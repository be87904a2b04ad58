import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorageOf, startTestStack, waitUntil, type Tenant, type TestStack } from '@quire/testkit';

const LIMITS = {
  UPLOAD_MAX_BYTES: 1024 * 1024,
  UPLOAD_MAX_FIELDS: 5,
  UPLOAD_MAX_FIELD_BYTES: 2048,
  JSON_BODY_MAX_BYTES: 8192,
  TEXT_MATERIAL_MAX_CHARS: 100,
  BATCH_MAX_ITEMS: 3,
  HTTP_IDLE_TIMEOUT_MS: 1000,
};

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({
    worker: false,
    config: Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
  });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const postJson = (body: unknown, pathname = '/api/v1/materials/upload-and-process') =>
  tenant.request(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

function uploadForm(file: Buffer, fields: Record<string, string> = { name: 'n' }, filename = 'notes.txt'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file], { type: 'text/plain' }), filename);
  return form;
}

/** Nothing of a refused request may stay behind: no material and no object under the organization. */
async function expectNothingKept(): Promise<void> {
  const list = await (await tenant.request('/api/v1/materials?limit=200')).json();
  expect(list.totalCount).toBe(0);
  const orgDir = path.join(localStorageOf(stack).dir, localStorageOf(stack).keyPrefix, tenant.organizationId);
  const objects = await fs.readdir(orgDir, { recursive: true }).catch(() => []);
  const files = [];
  for (const entry of objects) if ((await fs.stat(path.join(orgDir, entry))).isFile()) files.push(entry);
  expect(files).toEqual([]);
}

describe('configured limits', () => {
  it('answers 413 for an upload over UPLOAD_MAX_BYTES and keeps nothing of it', async () => {
    const res = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: uploadForm(Buffer.alloc(LIMITS.UPLOAD_MAX_BYTES + 1, 'a')),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    await expectNothingKept();
  });

  it('answers 413 for an upload URL PUT over the limit', async () => {
    const [slot] = await (
      await postJson(
        { materials: [{ name: 'big', filename: 'big.txt', contentType: 'text/plain' }] },
        '/api/v1/materials/batch',
      )
    ).json();
    const put = await fetch(slot.uploadUrl, { method: 'PUT', body: Buffer.alloc(LIMITS.UPLOAD_MAX_BYTES + 1, 'a') });
    expect(put.status).toBe(413);
    expect(await stack.store.stat(slot.s3Key)).toBeNull();
    await tenant.request(`/api/v1/materials/${slot.materialId}`, { method: 'DELETE' });
  });

  it('answers 400 naming the problem for too many files, too many fields and an oversized field', async () => {
    const twoFiles = uploadForm(Buffer.from('one'));
    twoFiles.append('file', new Blob([Buffer.from('two')]), 'b.txt');
    const files = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: twoFiles });
    expect(files.status).toBe(400);
    expect((await files.json()).message).toMatch(/one file/i);

    const manyFields = Object.fromEntries(
      Array.from({ length: LIMITS.UPLOAD_MAX_FIELDS + 1 }, (_, i) => [`f${i}`, 'x']),
    );
    const fields = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: uploadForm(Buffer.from('x'), manyFields),
    });
    expect(fields.status).toBe(400);
    expect((await fields.json()).message).toMatch(/too many (form fields|parts)/i);

    const longName = { name: 'x'.repeat(LIMITS.UPLOAD_MAX_FIELD_BYTES + 1) };
    const field = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: uploadForm(Buffer.from('x'), longName),
    });
    expect(field.status).toBe(400);
    expect(await field.json()).toMatchObject({
      message: expect.stringMatching(/field value is too long/i),
      details: [{ field: 'name' }],
    });
    await expectNothingKept();
  });

  it('answers 413 for a JSON body over JSON_BODY_MAX_BYTES and for text over TEXT_MATERIAL_MAX_CHARS', async () => {
    const body = await postJson({ name: 'n', content: { text: 'x'.repeat(LIMITS.JSON_BODY_MAX_BYTES) } });
    expect(body.status).toBe(413);
    expect((await body.json()).message).toMatch(/body is too large/i);

    const text = await postJson({ name: 'n', content: { text: 'x'.repeat(LIMITS.TEXT_MATERIAL_MAX_CHARS + 1) } });
    expect(text.status).toBe(413);
    expect((await text.json()).message).toContain('content.text');
    await expectNothingKept();
  });

  it('answers 400 for a batch over BATCH_MAX_ITEMS', async () => {
    const items = Array.from({ length: LIMITS.BATCH_MAX_ITEMS + 1 }, (_, i) => ({
      name: `n${i}`,
      filename: 'a.txt',
      contentType: 'text/plain',
    }));
    const res = await postJson({ materials: items }, '/api/v1/materials/batch');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: [{ field: 'materials' }] });
    await expectNothingKept();
  });

  it('drops an upload that stalls longer than HTTP_IDLE_TIMEOUT_MS and keeps nothing of it', async () => {
    const { port } = new URL(stack.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.on('error', () => {});
    const boundary = 'stall';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nstalled\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nthe first bytes and then nothing`;
    const started = Date.now();
    socket.write(
      `POST /api/v1/materials/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${tenant.apiKey}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n${head}`,
    );
    const closedAt = await closed;
    expect(closedAt - started).toBeGreaterThanOrEqual(LIMITS.HTTP_IDLE_TIMEOUT_MS - 100);
    await waitUntil(
      async () => {
        try {
          await expectNothingKept();
          return true;
        } catch {
          return false;
        }
      },
      5_000,
      'the stalled upload to be cleaned up',
    );
  });

  it('keeps a *-and-process request open past the idle timeout while it waits, and answers 202', async () => {
    const other = await stack.newTenant();
    const res = await other.request('/api/v1/materials/upload-and-process', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'slow',
        content: { text: 'no worker runs here' },
        timeoutMs: LIMITS.HTTP_IDLE_TIMEOUT_MS * 3,
        pollIntervalMs: 500,
      }),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toMatch(/\/api\/v1\/materials\/[\w-]+$/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStore } from '@quire/storage';
import {
  localStorageOf,
  makePdf,
  startTestStack,
  type StorageDriver,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const post = (t: Tenant, path: string, body: unknown) =>
  t.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each<StorageDriver>(['local', 's3'])('batch upload through upload URLs (%s storage)', (driver) => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ storage: driver });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('creates pending slots, accepts a PUT to each URL, and completes them into active materials', async () => {
    const week = await (await post(tenant, '/api/v1/folders', { name: 'Week 1' })).json();
    const res = await post(tenant, '/api/v1/materials/batch', {
      materials: [
        { name: 'First', filename: 'first.pdf', contentType: 'application/pdf', folderId: week._id },
        { name: 'Second', filename: 'second.txt', contentType: 'text/plain' },
      ],
    });
    expect(res.status).toBe(201);
    const handles = await res.json();
    expect(handles).toHaveLength(2);
    expect(handles.map((h: { name: string }) => h.name)).toEqual(['First', 'Second']);
    for (const h of handles) {
      expect(Object.keys(h).sort()).toEqual(['materialId', 'name', 's3Key', 'uploadUrl']);
      expect(h.s3Key).toBe(`${tenant.organizationId}/${h.materialId}/original`);
    }
    const pending = await (await tenant.request(`/api/v1/materials/${handles[0].materialId}`)).json();
    expect(pending).toMatchObject({ status: 'pending_upload', folderId: week._id, name: 'First' });

    const early = await post(tenant, '/api/v1/materials/upload/complete', {
      materialId: handles[0].materialId,
      s3Key: handles[0].s3Key,
    });
    expect(early.status).toBe(409);

    const bodies = [await makePdf(['Batch page about volcanoes']), Buffer.from('Batch text about glaciers')];
    for (const [i, h] of handles.entries()) {
      const put = await fetch(h.uploadUrl, { method: 'PUT', body: bodies[i] });
      expect(put.status).toBe(200);
    }

    const wrongKey = await post(tenant, '/api/v1/materials/upload/complete', {
      materialId: handles[0].materialId,
      s3Key: handles[1].s3Key,
    });
    expect(wrongKey.status).toBe(400);
    const unknown = await post(tenant, '/api/v1/materials/upload/complete', {
      materialId: 'nope',
      s3Key: handles[0].s3Key,
    });
    expect(unknown.status).toBe(404);
    const foreign = await (
      await stack.newTenant()
    ).request('/api/v1/materials/upload/complete', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialId: handles[0].materialId, s3Key: handles[0].s3Key }),
    });
    expect(foreign.status).toBe(404);

    for (const [i, h] of handles.entries()) {
      const done = await post(tenant, '/api/v1/materials/upload/complete', {
        materialId: h.materialId,
        s3Key: h.s3Key,
      });
      expect(done.status).toBe(200);
      const m = await done.json();
      expect(m.status).toBe('processing');
      expect(m.content.fileSize).toBe(bodies[i]!.length);
      expect(m.usage.storageBytes).toBe(bodies[i]!.length);
    }
    const again = await post(tenant, '/api/v1/materials/upload/complete', {
      materialId: handles[1].materialId,
      s3Key: handles[1].s3Key,
    });
    expect(again.status).toBe(200);

    const expected = ['volcanoes', 'glaciers'];
    for (const [i, h] of handles.entries()) {
      const deadline = Date.now() + 30_000;
      let m;
      do {
        m = await (await tenant.request(`/api/v1/materials/${h.materialId}`)).json();
        if (m.status === 'active' || m.status === 'error') break;
        await new Promise((r) => setTimeout(r, 100));
      } while (Date.now() < deadline);
      expect(m.status).toBe('active');
      expect(m.contentType).toBe(i === 0 ? 'pdf' : 'text');
      expect(m.metadata.extractedText).toContain(expected[i]);
      const original = await fetch(m.content.s3Url);
      expect(Buffer.from(await original.arrayBuffer()).equals(bodies[i]!)).toBe(true);
    }
  });

  it('refuses a batch with no items, too many items, or a type quire cannot process', async () => {
    expect((await post(tenant, '/api/v1/materials/batch', { materials: [] })).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => ({
      name: `n${i}`,
      filename: 'a.pdf',
      contentType: 'application/pdf',
    }));
    expect((await post(tenant, '/api/v1/materials/batch', { materials: many })).status).toBe(400);
    const missing = await post(tenant, '/api/v1/materials/batch', { materials: [{ name: 'a', filename: 'a.pdf' }] });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toContain('contentType');
    const zip = await post(tenant, '/api/v1/materials/batch', {
      materials: [{ name: 'a', filename: 'a.zip', contentType: 'application/zip' }],
    });
    expect(zip.status).toBe(415);
  });

  it('answers 415 at completion when the uploaded bytes contradict the announced type', async () => {
    const [h] = await (
      await post(tenant, '/api/v1/materials/batch', {
        materials: [{ name: 'img', filename: 'a.png', contentType: 'image/png' }],
      })
    ).json();
    await fetch(h.uploadUrl, { method: 'PUT', body: await makePdf(['not an image']) });
    const res = await post(tenant, '/api/v1/materials/upload/complete', { materialId: h.materialId, s3Key: h.s3Key });
    expect(res.status).toBe(415);
    expect((await (await tenant.request(`/api/v1/materials/${h.materialId}`)).json()).status).toBe('pending_upload');
  });

  it('removes the bytes a completion refused, so the same upload URL takes the right file', async () => {
    const [h] = await (
      await post(tenant, '/api/v1/materials/batch', {
        materials: [{ name: 'retried', filename: 'r.pdf', contentType: 'application/pdf' }],
      })
    ).json();
    expect((await fetch(h.uploadUrl, { method: 'PUT', body: 'plain words, not a PDF' })).status).toBe(200);
    const refused = await post(tenant, '/api/v1/materials/upload/complete', {
      materialId: h.materialId,
      s3Key: h.s3Key,
    });
    expect(refused.status).toBe(415);
    expect(await stack.store.stat(h.s3Key)).toBeNull();

    expect((await fetch(h.uploadUrl, { method: 'PUT', body: await makePdf(['The right file at last']) })).status).toBe(
      200,
    );
    const completed = await post(tenant, '/api/v1/materials/upload/complete', {
      materialId: h.materialId,
      s3Key: h.s3Key,
    });
    const material = await completed.json();
    expect(completed.status, JSON.stringify(material)).toBeLessThan(300);
    expect(material.contentType).toBe('pdf');
  });
});

describe('local upload URLs', () => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ storage: 'local', worker: false, config: { UPLOAD_URL_TTL_SECONDS: '60' } });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('accepts one PUT, refuses a second, refuses a tampered signature and another key', async () => {
    const handles = await (
      await post(tenant, '/api/v1/materials/batch', {
        materials: [
          { name: 'a', filename: 'a.txt', contentType: 'text/plain' },
          { name: 'b', filename: 'b.txt', contentType: 'text/plain' },
        ],
      })
    ).json();
    const [a, b] = handles;
    expect((await fetch(a.uploadUrl, { method: 'PUT', body: 'first' })).status).toBe(200);
    expect((await fetch(a.uploadUrl, { method: 'PUT', body: 'second' })).status).toBe(409);

    const tampered = new URL(b.uploadUrl);
    tampered.searchParams.set('key', a.s3Key.replace('original', 'other'));
    expect((await fetch(tampered, { method: 'PUT', body: 'x' })).status).toBe(403);

    const signedAnHourAgo = createLocalStore({
      rootDir: localStorageOf(stack).dir,
      publicUrl: stack.url,
      signingSecret: localStorageOf(stack).signingSecret,
      now: () => Date.now() - 3600_000,
    });
    const expired = await fetch(await signedAnHourAgo.presignPut(b.s3Key, 60), { method: 'PUT', body: 'x' });
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toMatch(/expired/);
  });

  it('answers 202 with a Location header when processing outlasts timeoutMs', async () => {
    const started = Date.now();
    const res = await post(tenant, '/api/v1/materials/upload-and-process', {
      name: 'slow',
      content: { text: 'nobody processes this while the worker is off' },
      timeoutMs: 1000,
      pollIntervalMs: 200,
    });
    expect(res.status).toBe(202);
    const m = await res.json();
    expect(m.status).toBe('processing');
    expect(res.headers.get('location')).toBe(`${stack.url}/api/v1/materials/${m._id}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});

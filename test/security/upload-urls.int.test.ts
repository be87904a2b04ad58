import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localStorageOf,
  sendJson,
  startTestStack,
  waitForStatus,
  waitUntil,
  type StorageDriver,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

interface Slot {
  uploadUrl: string;
  s3Key: string;
  materialId: string;
}

async function newSlot(tenant: Tenant, name = 'notes'): Promise<Slot> {
  const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
    filename: `${name}.txt`,
    contentType: 'text/plain',
    name,
  });
  expect(res.status).toBe(200);
  return res.json();
}

const put = async (url: string, body: Buffer) => {
  const res = await fetch(url, { method: 'PUT', body });
  return { status: res.status, body: await res.text() };
};
const complete = (tenant: Tenant, slot: Slot) =>
  sendJson(tenant, 'POST', '/api/v1/materials/upload/complete', { materialId: slot.materialId, s3Key: slot.s3Key });
const downloaded = async (tenant: Tenant, id: string) => {
  const res = await tenant.request(`/api/v1/materials/${id}/download-url?expiresIn=60`);
  if (res.status !== 200) return { status: res.status, bytes: undefined };
  const file = await fetch((await res.json()).downloadUrl);
  return { status: res.status, bytes: Buffer.from(await file.arrayBuffer()) };
};

/** A PUT that sends its first half now and the rest when asked, so it is in flight for as long as a test needs. */
function slowPut(url: string, body: Buffer) {
  let res!: http.IncomingMessage;
  const req = http.request(
    new URL(url),
    { method: 'PUT', headers: { 'content-length': body.length } },
    (r) => (res = r),
  );
  const responded = new Promise<void>((resolve, reject) => {
    req.on('response', () => resolve());
    req.on('error', reject);
  });
  req.write(body.subarray(0, body.length / 2));
  return {
    async finish(): Promise<{ status: number; body: string }> {
      req.end(body.subarray(body.length / 2));
      await responded;
      let text = '';
      for await (const chunk of res) text += chunk.toString();
      return { status: res.statusCode!, body: text };
    },
  };
}

const legitimate = Buffer.from('legitimate lecture notes about photosynthesis and chlorophyll');
const other = Buffer.from('other bytes: a completely different file about volcanoes, '.repeat(200));

describe.each<StorageDriver>(['local', 's3'])('an upload URL (%s storage)', (driver) => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ storage: driver, config: { SWEEP_INTERVAL_MS: '1000' } });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('processes and serves the very bytes complete accepted, whatever parallel PUTs raced', async () => {
    const slot = await newSlot(tenant);
    const bodies = Array.from({ length: 8 }, (_, i) =>
      Buffer.from(`parallel writer ${i} ${'x'.repeat(i * 1000 + 1)} says photosynthesis`),
    );
    const results = await Promise.all(bodies.map((b) => put(slot.uploadUrl, b)));
    if (driver === 'local') {
      // One body per URL: exactly one writer wins, every other one is told so.
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    }
    const done = await complete(tenant, slot);
    expect(done.status).toBe(200);
    const material = await waitForStatus(tenant, slot.materialId, ['active', 'error']);
    expect(material.status).toBe('active');
    const served = await downloaded(tenant, slot.materialId);
    expect(served.status).toBe(200);
    expect(served.bytes!.length).toBe(material.content.fileSize);
    expect(material.metadata.extractedText).toBe(served.bytes!.toString());
    if (driver === 'local') {
      const winner = bodies[results.findIndex((r) => r.status === 200)]!;
      expect(served.bytes!.equals(winner)).toBe(true);
    }
  });

  it('refuses a PUT to the upload URL of a deleted material, or leaves no object behind', async () => {
    const slot = await newSlot(tenant);
    expect((await tenant.request(`/api/v1/materials/${slot.materialId}`, { method: 'DELETE' })).status).toBe(200);
    const late = await put(slot.uploadUrl, other);
    if (driver === 'local') expect(late.status).toBe(404);
    await waitUntil(
      async () => (await stack.store.stat(slot.s3Key)) === null,
      15_000,
      'no object under the deleted material',
    );
  });
});

describe('an upload URL (local storage): one body, first complete writer wins', () => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ storage: 'local' });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());
  const objectFile = (key: string) => path.join(localStorageOf(stack).dir, localStorageOf(stack).keyPrefix, key);

  it('answers 409 to a PUT while another is in flight, and to any PUT once one finished or the material owns it', async () => {
    const slot = await newSlot(tenant);
    const first = slowPut(slot.uploadUrl, legitimate);
    await waitUntil(
      async () => (await fs.readdir(path.dirname(objectFile(slot.s3Key))).catch(() => [])).length > 0,
      10_000,
      'the first PUT to start writing',
    );

    const concurrent = await put(slot.uploadUrl, other);
    expect(concurrent.status).toBe(409);
    expect(JSON.parse(concurrent.body)).toMatchObject({
      statusCode: 409,
      message: 'Another upload to this URL is in progress',
    });
    expect((await complete(tenant, slot)).status).toBe(409);

    expect((await first.finish()).status).toBe(200);
    expect((await put(slot.uploadUrl, other)).status).toBe(409);
    expect((await complete(tenant, slot)).status).toBe(200);
    const material = await waitForStatus(tenant, slot.materialId, ['active', 'error']);
    expect(material).toMatchObject({ status: 'active', content: { fileSize: legitimate.length } });

    const afterProcessing = await put(slot.uploadUrl, other);
    expect(afterProcessing.status).toBe(409);
    expect((await downloaded(tenant, slot.materialId)).bytes!.equals(legitimate)).toBe(true);
    expect(await fs.readdir(path.dirname(objectFile(slot.s3Key)))).toEqual(['original']);
  });

  it('removes what a PUT wrote when its material is deleted while the body was arriving', async () => {
    const slot = await newSlot(tenant);
    const upload = slowPut(slot.uploadUrl, legitimate);
    await waitUntil(
      async () => (await fs.readdir(path.dirname(objectFile(slot.s3Key))).catch(() => [])).length > 0,
      10_000,
      'the PUT to start writing',
    );
    expect((await tenant.request(`/api/v1/materials/${slot.materialId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await upload.finish()).status).toBe(404);
    expect(await fs.readdir(path.dirname(objectFile(slot.s3Key))).catch(() => [])).toEqual([]);
  });
});

describe('an upload URL (S3 storage): complete pins the object it accepted', () => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ storage: 's3', worker: false });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('fails processing, and refuses the download, when the object is overwritten after complete', async () => {
    const slot = await newSlot(tenant);
    expect((await put(slot.uploadUrl, legitimate)).status).toBe(200);
    const done = await complete(tenant, slot);
    expect(done.status).toBe(200);
    const pinned = (await done.json()).content;
    expect(pinned).toMatchObject({ fileSize: legitimate.length, etag: expect.any(String) });

    // The URL still takes a PUT until it expires (S3 cannot be told otherwise), and it lands before the worker reads.
    expect((await put(slot.uploadUrl, other)).status).toBe(200);
    await stack.startWorker();
    const material = await waitForStatus(tenant, slot.materialId, ['active', 'error']);
    expect(material.status).toBe('error');
    expect(material.metadata.error.code).toBe('CORRUPT');
    expect(material.metadata.error.message).toMatch(/overwritten after upload\/complete/);
    const served = await downloaded(tenant, slot.materialId);
    expect(served.status).toBe(409);
  });

  it('refuses the download of a processed material whose object was overwritten later', async () => {
    await stack.startWorker();
    const slot = await newSlot(tenant);
    expect((await put(slot.uploadUrl, legitimate)).status).toBe(200);
    expect((await complete(tenant, slot)).status).toBe(200);
    const material = await waitForStatus(tenant, slot.materialId, ['active', 'error']);
    expect(material).toMatchObject({ status: 'active', content: { fileSize: legitimate.length } });
    expect((await downloaded(tenant, slot.materialId)).bytes!.equals(legitimate)).toBe(true);

    expect((await put(slot.uploadUrl, other)).status).toBe(200);
    const served = await downloaded(tenant, slot.materialId);
    expect(served.status).toBe(409);
    // Reprocessing reads the pinned object only, so it fails instead of taking the other file's text.
    expect((await tenant.request(`/api/v1/materials/${slot.materialId}/reprocess`, { method: 'POST' })).status).toBe(
      200,
    );
    const again = await waitForStatus(tenant, slot.materialId, ['active', 'error']);
    expect(again.status).toBe('error');
    expect(again.metadata.extractedText).toBe(legitimate.toString());
  });
});

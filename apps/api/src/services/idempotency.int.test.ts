import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const postJson = (path: string, body: unknown, key?: string, t = tenant) =>
  t.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });

/** A replay's URLs are signed anew (see idempotency-replay.int.test.ts); what they point at and the rest are the same. */
const withoutSignatures = (body: unknown): unknown =>
  JSON.parse(
    JSON.stringify(body, (field, value: unknown) =>
      (field === 'uploadUrl' || field === 's3Url') && typeof value === 'string'
        ? `${new URL(value).pathname}?key=${new URL(value).searchParams.get('key')}`
        : value,
    ),
  );

const count = async () => (await (await tenant.request('/api/v1/materials?limit=200')).json()).totalCount;

describe('Idempotency-Key', () => {
  it('replays the first response for a retried JSON create and creates nothing new', async () => {
    const before = await count();
    const body = { name: 'Once', content: { text: 'created exactly once' } };
    const first = await postJson('/api/v1/materials/upload-and-process', body, 'create-once-1');
    expect(first.status).toBe(201);
    const created = await first.json();
    const retry = await postJson('/api/v1/materials/upload-and-process', body, 'create-once-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await retry.json())._id).toBe(created._id);
    expect(await count()).toBe(before + 1);
  });

  it('answers 422 when the same key comes with a different body', async () => {
    expect(
      (await postJson('/api/v1/materials/upload-and-process', { name: 'A', content: { text: 'a' } }, 'key-two')).status,
    ).toBe(201);
    const other = await postJson(
      '/api/v1/materials/upload-and-process',
      { name: 'B', content: { text: 'b' } },
      'key-two',
    );
    expect(other.status).toBe(422);
    expect((await other.json()).message).toMatch(/Idempotency-Key/);
  });

  it('replays the same body with its keys in another order; a different value is still 422', async () => {
    const body = {
      name: 'Ordered',
      content: { text: 'same meaning', type: 'text' },
      references: [{ title: 'T', url: 'https://example.org' }],
    };
    const first = await postJson('/api/v1/materials/upload-and-process', body, 'key-order');
    expect(first.status).toBe(201);
    const reordered = JSON.parse(
      '{"references":[{"url":"https://example.org","title":"T"}],"content":{"type":"text","text":"same meaning"},"name":"Ordered"}',
    );
    const replay = await postJson('/api/v1/materials/upload-and-process', reordered, 'key-order');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await replay.json())._id).toBe((await first.json())._id);
    const changed = { ...reordered, content: { type: 'text', text: 'other meaning' } };
    expect((await postJson('/api/v1/materials/upload-and-process', changed, 'key-order')).status).toBe(422);
  });

  it('replays multipart uploads and discards the retried file', async () => {
    const form = () => {
      const f = new FormData();
      f.append('name', 'upload once');
      f.append('file', new Blob(['the same bytes twice']), 'same.txt');
      return f;
    };
    const send = (body: FormData) =>
      tenant.request('/api/v1/materials/upload', { method: 'POST', body, headers: { 'idempotency-key': 'upload-1' } });
    const first = await (await send(form())).json();
    const retry = await send(form());
    expect(retry.status).toBe(201);
    expect((await retry.json())._id).toBe(first._id);
    const changed = new FormData();
    changed.append('name', 'upload once');
    changed.append('file', new Blob(['different bytes, same key']), 'same.txt');
    expect((await send(changed)).status).toBe(422);
    const originals = await stack.db
      .selectFrom('material_objects')
      .select('key')
      .where('kind', '=', 'original')
      .where('material_id', '=', first._id)
      .execute();
    expect(originals).toHaveLength(1);
  });

  it('answers 422 when a multipart retry sends the same bytes under another file name or claimed type', async () => {
    const send = (filename: string, type: string) => {
      const form = new FormData();
      form.append('name', 'named file');
      form.append('file', new Blob(['the same bytes each time'], { type }), filename);
      return tenant.request('/api/v1/materials/upload', {
        method: 'POST',
        body: form,
        headers: { 'idempotency-key': 'upload-named' },
      });
    };
    expect((await send('first.txt', 'text/plain')).status).toBe(201);
    expect((await send('first.txt', 'text/plain')).headers.get('idempotent-replayed')).toBe('true');
    const renamed = await send('second.txt', 'text/plain');
    expect(renamed.status).toBe(422);
    expect((await renamed.json()).message).toMatch(/Idempotency-Key/);
    expect((await send('first.txt', 'text/markdown')).status).toBe(422);
  });

  it('keeps keys per organization and lets a failed request be retried with its key', async () => {
    const other = await stack.newTenant();
    const body = { name: 'Shared key', content: { text: 'x' } };
    expect((await postJson('/api/v1/materials/upload-and-process', body, 'shared')).status).toBe(201);
    expect(
      (await postJson('/api/v1/materials/upload-and-process', body, 'shared', other)).headers.get(
        'idempotent-replayed',
      ),
    ).toBeNull();

    const bad = await postJson(
      '/api/v1/materials/batch',
      { materials: [{ name: 'x', filename: 'x.zip', contentType: 'application/zip' }] },
      'retry-me',
    );
    expect(bad.status).toBe(415);
    const fixed = await postJson(
      '/api/v1/materials/batch',
      { materials: [{ name: 'x', filename: 'x.zip', contentType: 'application/zip' }] },
      'retry-me',
    );
    expect(fixed.status).toBe(415);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect((await postJson('/api/v1/materials/batch', { materials: [] }, ' bad key ')).status).toBe(400);
  });

  it.each([
    ['/api/v1/materials', { name: 'created', content: { text: 'no waiting' } }],
    ['/api/v1/materials/upload/presigned-url', { name: 'slot', filename: 'a.pdf', contentType: 'application/pdf' }],
    ['/api/v1/materials/batch', { materials: [{ name: 'slot', filename: 'a.txt', contentType: 'text/plain' }] }],
    ['/api/v1/folders', { name: 'Week 1' }],
  ])('replays %s for a retried key and creates nothing new', async (path, body) => {
    const t = await stack.newTenant();
    const first = await postJson(path, body, `retry-${path}`, t);
    expect(first.status).toBeLessThan(300);
    const retry = await postJson(path, body, `retry-${path}`, t);
    expect(retry.status).toBe(first.status);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(withoutSignatures(await retry.json())).toEqual(withoutSignatures(await first.json()));
    const materials = (await (await t.request('/api/v1/materials?limit=200')).json()).totalCount;
    const folders = Number((await t.request('/api/v1/folders')).headers.get('x-total-count'));
    expect(materials + folders).toBe(1);
  });
});

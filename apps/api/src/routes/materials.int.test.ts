import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, startTestStack, waitForStatus, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
  other = await stack.newTenant();
});
afterAll(() => stack?.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function form(fields: Record<string, string>, file?: { body: Buffer | string; name: string; type?: string }) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file) data.append('file', new Blob([file.body], { type: file.type ?? 'application/octet-stream' }), file.name);
  return data;
}

const post = (t: Tenant, path: string, body: unknown) =>
  t.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('authentication', () => {
  it('answers 403 {"error":"Unauthorized"} without a key, with an unknown key and with a revoked key', async () => {
    const none = await fetch(`${stack.url}/api/v1/materials`);
    expect(none.status).toBe(403);
    expect(await none.json()).toEqual({ error: 'Unauthorized' });

    const bad = await fetch(`${stack.url}/api/v1/materials`, {
      headers: { 'x-api-key': 'qk_aaaaaaaaaaaa_' + 'b'.repeat(43) },
    });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ error: 'Unauthorized' });

    const garbage = await fetch(`${stack.url}/api/v1/materials`, { headers: { 'x-api-key': 'nonsense' } });
    expect(garbage.status).toBe(403);

    const revoked = await stack.newTenant();
    expect((await revoked.request('/api/v1/materials')).status).toBe(200);
    await stack.revokeKey(revoked.keyId);
    const after = await revoked.request('/api/v1/materials');
    expect(after.status).toBe(403);
    expect(await after.json()).toEqual({ error: 'Unauthorized' });
  });
});

describe('POST /upload', () => {
  it('stores the file, answers 201 with the material in processing, and processing makes it active', async () => {
    const pdf = await makePdf(['Page one talks about apples.', 'Page two explains photosynthesis.'], {
      title: 'Botany',
    });
    const folder = await (await post(tenant, '/api/v1/folders', { name: 'Botany' })).json();
    const res = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: form(
        {
          name: 'Botany notes',
          folderId: folder._id,
          extractImages: 'false',
          references: JSON.stringify([{ title: 'Src', url: 'https://example.com/a' }]),
        },
        { body: pdf, name: 'botany.pdf', type: 'application/pdf' },
      ),
    });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m).toMatchObject({
      name: 'Botany notes',
      organizationId: tenant.organizationId,
      folderId: folder._id,
      contentType: 'pdf',
      status: 'processing',
      references: [{ title: 'Src', url: 'https://example.com/a' }],
      usage: { storageBytes: pdf.length, derivedBytes: 0 },
    });
    expect(m._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.createdAt).toMatch(ISO);
    expect(m.updatedAt).toMatch(ISO);
    expect(m.content).toMatchObject({ filename: 'botany.pdf', fileSize: pdf.length, mimeType: 'application/pdf' });
    expect(m.content.s3Key).toBe(`${tenant.organizationId}/${m._id}/original`);
    const original = await fetch(m.content.s3Url);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(pdf)).toBe(true);

    const done = await waitForStatus(tenant, m._id, ['active', 'error']);
    expect(done.status).toBe('active');
    expect(done.metadata.pageCount).toBe(2);
    expect(done.metadata.title).toBe('Botany');
    expect(done.metadata.extractedText).toContain('photosynthesis');
    const [page1, page2] = done.metadata.pages;
    expect(done.metadata.extractedText.slice(page2.offset, page2.offset + page2.length)).toContain(
      'Page two explains photosynthesis',
    );
    expect(done.metadata.extractedText.slice(page1.offset, page1.offset + page1.length)).not.toContain(
      'photosynthesis',
    );
    expect(done.metadata.wordCount).toBe(9);
    expect(done.metadata.processingMs).toBeGreaterThan(0);
    expect(done.metadata.progress).toBeUndefined();
  });

  it('rejects a missing file, a missing name, bad extractImages and invalid references JSON with 400 naming the field', async () => {
    const cases: [FormData, string][] = [
      [form({ name: 'x' }), 'file'],
      [form({}, { body: 'hello', name: 'a.txt' }), 'name'],
      [form({ name: 'x', extractImages: 'yes' }, { body: 'hello', name: 'a.txt' }), 'extractImages'],
      [form({ name: 'x', references: '[{"title":' }, { body: 'hello', name: 'a.txt' }), 'references'],
      [form({ name: 'x', references: '[{"title":"t"}]' }, { body: 'hello', name: 'a.txt' }), 'references'],
      [form({ name: 'x', color: 'red' }, { body: 'hello', name: 'a.txt' }), 'color'],
    ];
    for (const [body, field] of cases) {
      const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body });
      expect(res.status, field).toBe(400);
      const error = await res.json();
      expect(error).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(error.message, field).toContain(field === 'color' ? 'color' : field);
    }
    const list = await (await tenant.request('/api/v1/materials?limit=200')).json();
    expect(list.materials.filter((m: { name: string }) => m.name === 'x')).toEqual([]);
  });

  it('answers 415 when the claimed type contradicts the bytes, or the bytes are not a supported type', async () => {
    const pdf = await makePdf(['x']);
    const lie = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: form({ name: 'liar' }, { body: pdf, name: 'a.png', type: 'image/png' }),
    });
    expect(lie.status).toBe(415);
    expect(await lie.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });

    const zip = Buffer.from('504b0304140000000800', 'hex');
    const unsupported = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      body: form({ name: 'zip' }, { body: Buffer.concat([zip, Buffer.alloc(200, 1)]), name: 'a.bin' }),
    });
    expect(unsupported.status).toBe(415);
  });

  it('stores a file named with ../ and NUL under a generated key, keeping only a sanitized name', async () => {
    // Built by hand: the NUL travels percent-encoded in filename* (RFC 5987), which busboy decodes.
    const boundary = 'quire-boundary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nsneaky\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''..%2F..%2Fetc%2Fpass%00wd.txt\r\n` +
      `Content-Type: text/plain\r\n\r\nplain words here\r\n--${boundary}--\r\n`;
    const res = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const m = await res.json();
    expect(res.status, JSON.stringify(m)).toBe(201);
    expect(m.content.s3Key).toBe(`${tenant.organizationId}/${m._id}/original`);
    expect(m.content.filename).toBe('passwd.txt');
    expect(m.contentType).toBe('text');
    const done = await waitForStatus(tenant, m._id, ['active', 'error']);
    expect(done.status).toBe('active');
    expect(done.metadata.extractedText).toBe('plain words here');
    expect(done.metadata.wordCount).toBe(3);
  });

  it('answers a truncated multipart body with 400 and keeps nothing', async () => {
    const before = (await (await tenant.request('/api/v1/materials?limit=200')).json()).totalCount;
    const res = await tenant.request('/api/v1/materials/upload', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=cut' },
      body: '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf a fi',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/multipart/i);
    expect((await (await tenant.request('/api/v1/materials?limit=200')).json()).totalCount).toBe(before);
  });
});

describe('POST /upload/file-and-process', () => {
  it('answers 201 with the active material for a fast job', async () => {
    const res = await tenant.request('/api/v1/materials/upload/file-and-process', {
      method: 'POST',
      body: form(
        { name: 'quick', timeoutMs: '60000', pollIntervalMs: '5000' },
        { body: 'A short note about tides.', name: 'n.txt' },
      ),
    });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m.status).toBe('active');
    expect(m.metadata.extractedText).toBe('A short note about tides.');
  });

  it('answers 422 with the error body and the failed material for a file that cannot be processed', async () => {
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)]);
    const res = await tenant.request('/api/v1/materials/upload/file-and-process', {
      method: 'POST',
      body: form({ name: 'broken' }, { body: broken, name: 'broken.pdf', type: 'application/pdf' }),
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({ statusCode: 422, error: 'Unprocessable Entity' });
    expect(body.message).toMatch(/PDF/);
    expect(body.material.status).toBe('error');
    expect(body.material.metadata.error.code).toBe('CORRUPT');
  });

  it('validates timeoutMs and pollIntervalMs ranges', async () => {
    for (const fields of [
      { timeoutMs: '999' },
      { timeoutMs: '600001' },
      { pollIntervalMs: '99' },
      { pollIntervalMs: 'soon' },
    ]) {
      const res = await tenant.request('/api/v1/materials/upload/file-and-process', {
        method: 'POST',
        body: form({ name: 'v', ...fields }, { body: 'text', name: 't.txt' }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(Object.keys(fields)[0]);
    }
  });
});

describe('POST /upload-and-process', () => {
  it('creates a text material and answers 201 once it is active', async () => {
    const { data: m, response } = await tenant.client.POST('/api/v1/materials/upload-and-process', {
      body: {
        name: 'Inline',
        content: { text: 'Mitochondria are the powerhouse of the cell.' },
        references: [{ title: 'Bio', url: 'https://example.org/bio' }],
      },
    });
    expect(response.status).toBe(201);
    expect(m).toMatchObject({
      name: 'Inline',
      contentType: 'text',
      status: 'active',
      folderId: null,
      content: { text: 'Mitochondria are the powerhouse of the cell.' },
      references: [{ title: 'Bio', url: 'https://example.org/bio' }],
      usage: { storageBytes: 0, derivedBytes: 0 },
    });
    expect(m!.metadata.wordCount).toBe(7);
  });

  it('rejects bad bodies with 400', async () => {
    const bad: unknown[] = [
      {},
      { name: 'x' },
      { name: 'x', content: {} },
      { name: 'x', content: { text: 'a', url: 'https://example.com' } },
      { name: 'x', content: { url: 'ftp://example.com/a' } },
      { name: 'x', content: { text: 'a', type: 'pdf' } },
      { name: 'x', content: { url: 'https://example.com/a.pdf', type: 'text' } },
      { name: 'x', content: { text: 'a' }, references: 'nope' },
      { name: 'x', content: { text: 'a' }, timeoutMs: 10 },
      { name: 'x', content: { text: 'a' }, surprise: true },
    ];
    for (const body of bad) {
      const res = await post(tenant, '/api/v1/materials/upload-and-process', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).statusCode).toBe(400);
    }
    const malformed = await tenant.request('/api/v1/materials/upload-and-process', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).message).toMatch(/JSON/);
  });
});

describe('GET / (list), through the typed client', () => {
  it('pages newest first, filters by folder and name, and rejects out-of-range values', async () => {
    const t = await stack.newTenant();
    const folders = await Promise.all(['A', 'B'].map((name) => t.client.POST('/api/v1/folders', { body: { name } })));
    const [folderA, folderB] = folders.map(({ data }) => data!);
    for (let i = 1; i <= 5; i++) {
      const { response } = await t.client.POST('/api/v1/materials/upload-and-process', {
        body: {
          name: i % 2 ? `Odd Chapter ${i}` : `Even chapter ${i}`,
          folderId: i <= 2 ? folderA!._id : folderB!._id,
          content: { text: `text ${i}` },
        },
      });
      expect(response.status).toBe(201);
    }
    const list = async (query: { folderId?: string; page?: number; limit?: number; search?: string }) => {
      const { data, error, response } = await t.client.GET('/api/v1/materials', { params: { query } });
      return { data, error, status: response.status };
    };
    const first = (await list({ limit: 2 })).data!;
    expect(first).toMatchObject({ totalCount: 5, page: 1, totalPages: 3 });
    expect(first.materials.map((m) => m.name)).toEqual(['Odd Chapter 5', 'Even chapter 4']);

    expect((await list({ limit: 2, page: 3 })).data!.materials.map((m) => m.name)).toEqual(['Odd Chapter 1']);
    expect((await list({ limit: 2, page: 4 })).data).toEqual({ materials: [], totalCount: 5, page: 4, totalPages: 3 });
    expect((await list({ limit: 200 })).data!.materials).toHaveLength(5);
    expect((await list({ folderId: folderA!._id })).data!.totalCount).toBe(2);

    const unknownFolder = await list({ folderId: 'f-a' });
    expect(unknownFolder.status).toBe(404);
    expect(unknownFolder.error).toEqual({ statusCode: 404, error: 'Not Found', message: 'Folder not found' });

    expect((await list({ search: 'CHAPTER 4' })).data!.materials.map((m) => m.name)).toEqual(['Even chapter 4']);
    expect((await list({ search: '%' })).data!.totalCount).toBe(0);

    // Values the typed client would not let through are sent raw.
    for (const q of ['limit=201', 'limit=0', 'page=0', 'page=abc', 'limit=1.5']) {
      const res = await t.request(`/api/v1/materials?${q}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).message).toContain(q.split('=')[0]);
    }
  });

  it('counts exactly what it lists: upload slots included, deleted materials not, each organization its own', async () => {
    const t = await stack.newTenant();
    const u = await stack.newTenant();
    const totalOf = async (tenant: typeof t) => (await tenant.client.GET('/api/v1/materials')).data!.totalCount;
    const materials = [1, 2, 3].map((i) => ({
      name: `Slot ${i}`,
      filename: `slot-${i}.pdf`,
      contentType: 'application/pdf',
    }));
    const { data: slots } = await t.client.POST('/api/v1/materials/batch', { body: { materials } });
    await u.client.POST('/api/v1/materials/batch', { body: { materials: materials.slice(0, 1) } });
    expect([await totalOf(t), await totalOf(u)]).toEqual([3, 1]);

    await t.client.DELETE('/api/v1/materials/{id}', { params: { path: { id: slots![0]!.materialId } } });
    const { data } = await t.client.GET('/api/v1/materials', { params: { query: { limit: 200 } } });
    expect(data!.totalCount).toBe(2);
    expect(data!.materials.map((m) => m.name)).toEqual(['Slot 3', 'Slot 2']);
    expect(await totalOf(u)).toBe(1);
  });
});

describe('GET, PATCH and DELETE /:id, through the typed client', () => {
  it('finds a material whatever the case of the path and with a trailing slash, and refuses an undecodable id', async () => {
    const created = await (
      await tenant.request('/api/v1/materials/upload/file-and-process', {
        method: 'POST',
        body: form({ name: 'routed' }, { body: await makePdf(['routing']), name: 'r.pdf' }),
      })
    ).json();
    for (const path of [`/API/V1/Materials/${created._id}`, `/api/v1/materials/${created._id}/`]) {
      const res = await tenant.request(path);
      expect(res.status, path).toBe(200);
      expect((await res.json())._id).toBe(created._id);
    }
    const head = await tenant.request(`/api/v1/materials/${created._id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const undecodable = await tenant.request('/api/v1/materials/%E0%A4%A');
    expect(undecodable.status).toBe(400);
    expect((await undecodable.json()).message).toMatch(/percent-encoded/);
    expect((await tenant.request('/api/v1/nothing-here')).status).toBe(404);
  });

  it('replaces references, deletes with its objects, and answers 404 afterwards and across organizations', async () => {
    const created = await (
      await tenant.request('/api/v1/materials/upload/file-and-process', {
        method: 'POST',
        body: form(
          { name: 'to delete', references: JSON.stringify([{ title: 'Old', url: 'https://old.example' }]) },
          { body: await makePdf(['delete me']), name: 'd.pdf' },
        ),
      })
    ).json();
    expect(created.status).toBe('active');
    const id: string = created._id;
    const params = { path: { id } };

    expect((await other.client.GET('/api/v1/materials/{id}', { params })).response.status).toBe(404);
    expect(
      (await other.client.PATCH('/api/v1/materials/{id}', { params, body: { references: [] } })).response.status,
    ).toBe(404);
    expect((await other.client.DELETE('/api/v1/materials/{id}', { params })).response.status).toBe(404);
    expect((await other.client.GET('/api/v1/materials')).data!.totalCount).toBe(0);

    const patched = await tenant.client.PATCH('/api/v1/materials/{id}', {
      params,
      body: { references: [{ title: 'New', url: 'https://new.example' }] },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data!.references).toEqual([{ title: 'New', url: 'https://new.example' }]);

    const badPatch = await tenant.request(`/api/v1/materials/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ references: [{ title: 'No url' }] }),
    });
    expect(badPatch.status).toBe(400);

    const keys = (
      await stack.db.selectFrom('material_objects').select('key').where('material_id', '=', id).execute()
    ).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    const del = await tenant.client.DELETE('/api/v1/materials/{id}', { params });
    expect(del.response.status).toBe(200);
    expect(del.data).toEqual({ success: true, id });
    for (const key of keys) expect(await stack.store.stat(key)).toBeNull();

    expect((await tenant.client.GET('/api/v1/materials/{id}', { params })).response.status).toBe(404);
    expect((await tenant.client.DELETE('/api/v1/materials/{id}', { params })).response.status).toBe(404);
    const notFound = await tenant.client.GET('/api/v1/materials/{id}', { params: { path: { id: 'does-not-exist' } } });
    expect(notFound.error).toEqual({ statusCode: 404, error: 'Not Found', message: 'Material not found' });
  });
});

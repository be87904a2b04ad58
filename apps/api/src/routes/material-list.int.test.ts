import { newId } from '@quire/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMaterial, startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
const bookIds: string[] = [];

/**
 * A 600-page book as the worker leaves it (its text in storage, a row per page, an image per 20 pages, preview
 * and thumbnail), written to the table directly: processing twenty such books would take minutes.
 */
async function insertBook(organizationId: string, n: number) {
  const id = newId();
  const key = `${organizationId}/${id}`;
  const image = (name: string, page: number) => ({
    id: `${id}-${name}`,
    s3Key: `${key}/derived/r1/${name}.webp`,
    page,
    width: 1240,
    height: 1754,
    format: 'webp',
  });
  await seedMaterial(stack.db, {
    id,
    organizationId,
    folderId: null,
    name: `Collected lectures, volume ${n}`,
    contentType: 'pdf',
    status: 'active',
    source: {
      kind: 'file',
      file: { s3Key: `${key}/original`, filename: `volume-${n}.pdf`, fileSize: 4_812_330, mimeType: 'application/pdf' },
    },
    references: [{ title: 'Course page', url: 'https://example.org/course' }],
    extractImages: true,
    storageBytes: 4_812_330,
    metadata: {
      pageCount: 600,
      pages: Array.from({ length: 600 }, (_, i) => ({
        page: i + 1,
        offset: i * 2_731,
        length: 2_730,
        wordCount: 431,
      })),
      title: `Collected lectures ${n}`,
      author: 'A. Lecturer',
      producer: 'LibreOffice 7.6',
      textKey: `${key}/derived/r1/text.txt`,
      wordCount: 258_600,
      textLength: 1_638_600,
      images: Array.from({ length: 30 }, (_, i) => ({ ...image(`page-${i * 20 + 1}`, i * 20 + 1), kind: 'extracted' })),
      preview: image('preview', 1),
      thumbnail: { ...image('thumbnail', 1), width: 256, height: 362 },
      processingMs: 4_210,
      extractor: { name: 'pdf', version: 3 },
    },
  });
  return id;
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
  for (let n = 1; n <= 20; n++) bookIds.push(await insertBook(tenant.organizationId, n));
});
afterAll(() => stack?.close());

describe('list pages', () => {
  it('carry 20 processed 600-page books in under 40 KB, each with its summary and URLs but not its per-page rows', async () => {
    const res = await tenant.request('/api/v1/materials?limit=20');
    expect(res.status).toBe(200);
    const bytes = (await res.clone().arrayBuffer()).byteLength;
    expect(bytes).toBeLessThan(40 * 1024);
    const page = await res.json();
    expect(page).toMatchObject({ totalCount: 20, page: 1, totalPages: 1 });
    expect(page.materials).toHaveLength(20);
    for (const item of page.materials) {
      expect(item.metadata).toMatchObject({ pageCount: 600, wordCount: 258_600, title: expect.any(String) });
      expect(item.metadata).not.toHaveProperty('pages');
      expect(item.metadata).not.toHaveProperty('images');
      expect(item.metadata).not.toHaveProperty('preview');
      expect(item.metadata.thumbnail.s3Url).toMatch(/^http/);
      expect(item.content.s3Url).toMatch(/^http/);
      expect(item.references).toHaveLength(1);
    }
  });

  it('bring the heavy fields back for a client that names them in include, and GET /{id} always has them', async () => {
    const page = await (await tenant.request('/api/v1/materials?limit=20&include=pages,images')).json();
    for (const item of page.materials) {
      expect(item.metadata.pages).toHaveLength(600);
      expect(item.metadata.images).toHaveLength(30);
      expect(item.metadata.images[0].s3Url).toMatch(/^http/);
      expect(item.metadata.preview.s3Url).toMatch(/^http/);
    }
    const one = await (await tenant.request(`/api/v1/materials/${bookIds[0]}`)).json();
    expect(one.metadata.pages).toHaveLength(600);
    expect(one.metadata.images).toHaveLength(30);
    expect(one.metadata.preview.s3Url).toMatch(/^http/);

    const onlyPages = await (await tenant.request('/api/v1/materials?limit=1&include=pages')).json();
    expect(onlyPages.materials[0].metadata.pages).toHaveLength(600);
    expect(onlyPages.materials[0].metadata).not.toHaveProperty('images');
  });

  it('leave a text material its text only when include names it', async () => {
    const other = await stack.newTenant();
    const text = 'A note that could be five million characters long. '.repeat(20);
    const created = await other.request('/api/v1/materials', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'A note', content: { text } }),
    });
    expect(created.status).toBe(201);
    const lean = (await (await other.request('/api/v1/materials')).json()).materials[0];
    expect(lean.content).not.toHaveProperty('text');
    expect(lean.metadata).not.toHaveProperty('extractedText');
    const full = (await (await other.request('/api/v1/materials?include=text')).json()).materials[0];
    expect(full.content.text).toBe(text);
  });

  it('answer 400 naming the parameter for an include they do not know', async () => {
    const res = await tenant.request('/api/v1/materials?include=pages,everything');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('include');
  });

  it('in a folder are as lean', async () => {
    const folder = await (
      await tenant.request('/api/v1/folders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Books' }),
      })
    ).json();
    await tenant.request('/api/v1/materials/bulk/move', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialIds: bookIds.slice(0, 3), folderId: folder._id }),
    });
    const page = await (await tenant.request(`/api/v1/folders/${folder._id}/materials`)).json();
    expect(page.materials).toHaveLength(3);
    for (const item of page.materials) expect(item.metadata).not.toHaveProperty('pages');
    const full = await (await tenant.request(`/api/v1/folders/${folder._id}/materials?include=pages`)).json();
    for (const item of full.materials) expect(item.metadata.pages).toHaveLength(600);
  });
});

describe('totals', () => {
  const post = (t: Tenant, path: string, body: unknown, method = 'POST') =>
    t.request(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const totalOf = async (t: Tenant, query: string) =>
    (await (await t.request(`/api/v1/materials?${query}`)).json()).totalCount;

  it('of a name search stay exact as materials come, go, are renamed and moved, page after page', async () => {
    const t = await stack.newTenant();
    const ids: string[] = [];
    for (let i = 1; i <= 25; i++)
      ids.push((await (await post(t, '/api/v1/materials', { name: `Tides ${i}`, content: { text: 'x' } })).json())._id);
    await post(t, '/api/v1/materials', { name: 'Something else', content: { text: 'x' } });

    expect(await totalOf(t, 'search=tides&limit=10')).toBe(25);
    // Asked again (and on later pages), as a client paging through it does.
    expect(await totalOf(t, 'search=tides&limit=10&page=2')).toBe(25);
    const last = await (await t.request('/api/v1/materials?search=tides&limit=10&page=3')).json();
    expect(last).toMatchObject({ totalCount: 25, totalPages: 3 });
    expect(last.materials).toHaveLength(5);

    await post(t, `/api/v1/materials/${ids[0]}/rename`, { name: 'Currents' });
    expect(await totalOf(t, 'search=tides&limit=10')).toBe(24);
    await post(t, '/api/v1/materials', { name: 'More tides', content: { text: 'x' } });
    expect(await totalOf(t, 'search=tides&limit=10')).toBe(25);
    expect((await t.request(`/api/v1/materials/${ids[1]}`, { method: 'DELETE' })).status).toBe(200);
    expect(await totalOf(t, 'search=tides&limit=10')).toBe(24);

    const folder = await (await post(t, '/api/v1/folders', { name: 'Coast' })).json();
    expect(await totalOf(t, `search=tides&limit=2&folderId=${folder._id}`)).toBe(0);
    await post(t, '/api/v1/materials/bulk/move', { materialIds: ids.slice(2, 6), folderId: folder._id });
    expect(await totalOf(t, `search=tides&limit=2&folderId=${folder._id}`)).toBe(4);
    expect(await totalOf(t, `limit=2&folderId=${folder._id}`)).toBe(4);
    expect(await totalOf(t, 'limit=2')).toBe(26);
    // A page past the end still says how many there are.
    expect(await (await t.request('/api/v1/materials?search=tides&limit=10&page=9')).json()).toMatchObject({
      materials: [],
      totalCount: 24,
      totalPages: 3,
    });
  });
});

describe('materials rendered once per row version', () => {
  const getJson = async (t: Tenant, path: string) => {
    const res = await t.request(path);
    expect(res.status).toBe(200);
    return res.json();
  };

  it('show a change another process made to the row on the very next list and GET /{id}', async () => {
    const id = bookIds[19]!;
    const itemOf = async (query: string) =>
      (await getJson(tenant, `/api/v1/materials?limit=5${query}`)).materials.find((m: { _id: string }) => m._id === id);
    expect((await itemOf('')).metadata.wordCount).toBe(258_600);
    expect((await getJson(tenant, `/api/v1/materials/${id}`)).metadata.wordCount).toBe(258_600);

    // As the worker writes a reprocessed material: straight to the row, not through this api process.
    await stack.db
      .updateTable('materials')
      .set((eb) => ({
        metadata: eb.fn<string>('jsonb_set', [eb.ref('metadata'), eb.val('{wordCount}'), eb.val('1234')]),
      }))
      .where('id', '=', id)
      .execute();
    expect((await itemOf('')).metadata.wordCount).toBe(1234);
    expect((await getJson(tenant, `/api/v1/materials/${id}`)).metadata.wordCount).toBe(1234);
    // Each shape is its own rendering: a list with include= is not served the lean item, nor the reverse.
    expect((await itemOf('&include=pages')).metadata.pages).toHaveLength(600);
    expect(await itemOf('')).not.toHaveProperty('metadata.pages');
  });

  it('leave out a material deleted since, and answer 404 for it', async () => {
    const t = await stack.newTenant();
    const id = await insertBook(t.organizationId, 1);
    expect((await getJson(t, `/api/v1/materials/${id}`))._id).toBe(id);
    expect((await t.request(`/api/v1/materials/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await t.request(`/api/v1/materials/${id}`)).status).toBe(404);
    expect(await getJson(t, '/api/v1/materials')).toMatchObject({ materials: [], totalCount: 0 });
  });

  it('carry URLs valid for the whole DOWNLOAD_URL_TTL_SECONDS even when served from what was rendered before', async () => {
    const short = await startTestStack({
      worker: false,
      config: { DOWNLOAD_URL_TTL_SECONDS: '60', DOWNLOAD_URL_REUSE_SECONDS: '3' },
    });
    try {
      const t = await short.newTenant();
      const id = await insertBook(t.organizationId, 1);
      const expiresOf = (url: string) => Number(new URL(url).searchParams.get('expires'));
      const first = await getJson(t, `/api/v1/materials/${id}`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const again = await getJson(t, `/api/v1/materials/${id}`);
      const now = Date.now() / 1000;
      for (const url of [again.content.s3Url, again.metadata.thumbnail.s3Url, again.metadata.images[0].s3Url])
        expect(expiresOf(url)).toBeGreaterThanOrEqual(now + 60 - 1);
      // Still the rendering of two seconds ago (the same URL), not signed again.
      expect(again.metadata.thumbnail.s3Url).toBe(first.metadata.thumbnail.s3Url);
    } finally {
      await short.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestStack, waitForStatus, type Tenant, type TestStack } from '@quire/testkit';

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
const FOLDER_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Folder not found' };

interface FolderBody {
  _id: string;
  name: string;
  parentFolderId: string | null;
}

async function folder(t: Tenant, name: string, parentFolderId?: string): Promise<FolderBody> {
  const res = await sendJson(t, 'POST', '/api/v1/folders', { name, ...(parentFolderId ? { parentFolderId } : {}) });
  expect(res.status).toBe(201);
  return res.json();
}

async function textMaterial(t: Tenant, name: string, folderId?: string) {
  const res = await sendJson(t, 'POST', '/api/v1/materials/upload-and-process', {
    name,
    content: { text: `${name} text` },
    ...(folderId ? { folderId } : {}),
  });
  expect(res.status).toBe(201);
  return res.json() as Promise<{ _id: string; folderId: string | null }>;
}

describe('folders', () => {
  it('creates a folder with the public service shape, and a subfolder under it', async () => {
    const res = await sendJson(tenant, 'POST', '/api/v1/folders', {
      name: '  Biology ',
      description: 'Cells and plants',
    });
    expect(res.status).toBe(201);
    const root = await res.json();
    expect(Object.keys(root).sort()).toEqual([
      '_id',
      'createdAt',
      'description',
      'metadata',
      'name',
      'organizationId',
      'parentFolderId',
      'status',
      'updatedAt',
    ]);
    expect(root.status).toBe('active');
    expect(root.metadata).toEqual({
      color: null,
      icon: null,
      materialCount: 0,
      totalSize: 0,
      lastActivity: root.createdAt,
    });
    expect(root).toMatchObject({
      name: 'Biology',
      description: 'Cells and plants',
      organizationId: tenant.organizationId,
      parentFolderId: null,
    });
    expect(root._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(root.createdAt).toMatch(ISO);
    expect(root.updatedAt).toMatch(ISO);

    const child = await folder(tenant, 'Cells', root._id);
    expect(child.parentFolderId).toBe(root._id);
    expect((await (await sendJson(tenant, 'GET', `/api/v1/folders/${child._id}`)).json()).description).toBeNull();
  });

  it('refuses invalid bodies with 400 and unknown or foreign parents with 404', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(256) },
      { name: 'a', parentFolderId: '' },
      { name: 'a', color: 'red' },
      { name: 7 },
    ]) {
      const res = await sendJson(tenant, 'POST', '/api/v1/folders', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).statusCode).toBe(400);
    }
    const unknown = await sendJson(tenant, 'POST', '/api/v1/folders', { name: 'a', parentFolderId: 'nope' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(FOLDER_NOT_FOUND);
    const foreignParent = await folder(other, 'Theirs');
    expect(
      (await sendJson(tenant, 'POST', '/api/v1/folders', { name: 'a', parentFolderId: foreignParent._id })).status,
    ).toBe(404);
  });

  it('gets a folder with its subfolders and the count of its live materials', async () => {
    const parent = await folder(tenant, 'Physics');
    const [optics, mechanics] = [
      await folder(tenant, 'Optics', parent._id),
      await folder(tenant, 'Mechanics', parent._id),
    ];
    await folder(tenant, 'Lenses', optics._id);
    await textMaterial(tenant, 'Newton', parent._id);
    const doomed = await textMaterial(tenant, 'Doomed', parent._id);
    await sendJson(tenant, 'DELETE', `/api/v1/materials/${doomed._id}`);

    const res = await sendJson(tenant, 'GET', `/api/v1/folders/${parent._id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ _id: parent._id, name: 'Physics', materialCount: 1, totalSize: 0 });
    expect(body.subfolders.map((f: FolderBody) => f._id)).toEqual([mechanics._id, optics._id]);
    expect(body.subfolders[0]).toMatchObject({ parentFolderId: parent._id, name: 'Mechanics' });
    // The folder's own materials, as its materials list shows them (the deleted one is gone).
    expect(body.materials.map((m: { name: string }) => m.name)).toEqual(['Newton']);
    expect(body.materials[0]).not.toHaveProperty('content.text');

    const missing = await sendJson(tenant, 'GET', '/api/v1/folders/does-not-exist');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(FOLDER_NOT_FOUND);
    expect((await sendJson(other, 'GET', `/api/v1/folders/${parent._id}`)).status).toBe(404);
  });

  it('updates name and description, never the parent, and only for its organization', async () => {
    const f = await folder(tenant, 'Draft');
    const res = await sendJson(tenant, 'PATCH', `/api/v1/folders/${f._id}`, { name: 'Final', description: 'Done' });
    expect(res.status).toBe(200);
    const updated = await res.json();
    expect(updated).toMatchObject({ _id: f._id, name: 'Final', description: 'Done' });
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(updated.createdAt).getTime());
    expect(
      (await (await sendJson(tenant, 'PATCH', `/api/v1/folders/${f._id}`, { description: null })).json()).description,
    ).toBeNull();

    expect((await sendJson(tenant, 'PATCH', `/api/v1/folders/${f._id}`, { name: '' })).status).toBe(400);
    expect((await sendJson(tenant, 'PATCH', `/api/v1/folders/${f._id}`, { parentFolderId: null })).status).toBe(400);
    expect((await sendJson(tenant, 'PATCH', '/api/v1/folders/nope', { name: 'x' })).status).toBe(404);
    expect((await sendJson(other, 'PATCH', `/api/v1/folders/${f._id}`, { name: 'Stolen' })).status).toBe(404);
    expect((await (await sendJson(tenant, 'GET', `/api/v1/folders/${f._id}`)).json()).name).toBe('Final');
  });

  it('lists folders by page, by parent and by name, and rejects bad queries', async () => {
    const t = await stack.newTenant();
    const parent = await folder(t, 'Year 1');
    for (const name of ['Week 3', 'Week 1', 'Week 2']) await folder(t, name, parent._id);

    // A bare array, as the public service's SDK reads it; the counts are in headers.
    const first = await sendJson(t, 'GET', '/api/v1/folders?limit=2');
    const all = await first.json();
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((f: FolderBody) => f.name)).toEqual(['Week 1', 'Week 2']);
    expect([
      first.headers.get('x-total-count'),
      first.headers.get('x-page'),
      first.headers.get('x-total-pages'),
    ]).toEqual(['4', '1', '2']);
    const second = await (await sendJson(t, 'GET', '/api/v1/folders?limit=2&page=2')).json();
    expect(second.map((f: FolderBody) => f.name)).toEqual(['Week 3', 'Year 1']);
    const children = await (await sendJson(t, 'GET', `/api/v1/folders?parentFolderId=${parent._id}&limit=200`)).json();
    expect(children.map((f: FolderBody) => f.name)).toEqual(['Week 1', 'Week 2', 'Week 3']);
    const byName = await (await sendJson(t, 'GET', '/api/v1/folders?search=year')).json();
    expect(byName.map((f: FolderBody) => f._id)).toEqual([parent._id]);

    expect((await sendJson(t, 'GET', '/api/v1/folders?parentFolderId=nope')).status).toBe(404);
    for (const q of ['limit=0', 'limit=201', 'page=0'])
      expect((await sendJson(t, 'GET', `/api/v1/folders?${q}`)).status, q).toBe(400);
    const foreign = await sendJson(other, 'GET', '/api/v1/folders?search=Week');
    expect(await foreign.json()).toEqual([]);
    expect(foreign.headers.get('x-total-count')).toBe('0');
  });

  it('answers the whole tree with material counts', async () => {
    const t = await stack.newTenant();
    const a = await folder(t, 'A');
    const b = await folder(t, 'B');
    const a1 = await folder(t, 'A1', a._id);
    const a1x = await folder(t, 'A1x', a1._id);
    await textMaterial(t, 'one', a1x._id);
    await textMaterial(t, 'two', a1x._id);
    await textMaterial(t, 'three', b._id);

    const res = await sendJson(t, 'GET', '/api/v1/folders/tree');
    expect(res.status).toBe(200);
    const folders = await res.json();
    const shape = (nodes: { name: string; materialCount: number; subfolders: unknown[] }[]): unknown =>
      nodes.map((n) => ({ name: n.name, materialCount: n.materialCount, subfolders: shape(n.subfolders as never) }));
    expect(shape(folders)).toEqual([
      {
        name: 'A',
        materialCount: 0,
        subfolders: [{ name: 'A1', materialCount: 0, subfolders: [{ name: 'A1x', materialCount: 2, subfolders: [] }] }],
      },
      { name: 'B', materialCount: 1, subfolders: [] },
    ]);
    expect(folders[0]).toMatchObject({ _id: a._id, organizationId: t.organizationId, parentFolderId: null });
    expect(
      (await (await sendJson(other, 'GET', '/api/v1/folders/tree')).json()).map((f: FolderBody) => f._id),
    ).not.toContain(a._id);
  });

  it('pages through the materials of one folder', async () => {
    const f = await folder(tenant, 'Reading list');
    for (const name of ['First read', 'Second read', 'Third read']) await textMaterial(tenant, name, f._id);
    await textMaterial(tenant, 'Elsewhere');

    const page = await (await sendJson(tenant, 'GET', `/api/v1/folders/${f._id}/materials?limit=2`)).json();
    expect(page).toMatchObject({ totalCount: 3, page: 1, totalPages: 2 });
    expect(page.materials.map((m: { name: string }) => m.name)).toEqual(['Third read', 'Second read']);
    expect(page.materials[0]).toMatchObject({ folderId: f._id, status: 'active' });
    const searched = await (await sendJson(tenant, 'GET', `/api/v1/folders/${f._id}/materials?search=first`)).json();
    expect(searched.materials.map((m: { name: string }) => m.name)).toEqual(['First read']);

    expect(await (await sendJson(tenant, 'GET', '/api/v1/folders/nope/materials')).json()).toEqual(FOLDER_NOT_FOUND);
    expect((await sendJson(other, 'GET', `/api/v1/folders/${f._id}/materials`)).status).toBe(404);
    expect((await sendJson(tenant, 'GET', `/api/v1/folders/${f._id}/materials?limit=500`)).status).toBe(400);
  });

  it('moves a folder anywhere but into itself or below itself (409)', async () => {
    const top = await folder(tenant, 'Top');
    const mid = await folder(tenant, 'Mid', top._id);
    const low = await folder(tenant, 'Low', mid._id);
    const side = await folder(tenant, 'Side');

    for (const target of [top._id, mid._id, low._id]) {
      const res = await sendJson(tenant, 'PATCH', `/api/v1/folders/${top._id}/move`, { parentFolderId: target });
      expect(res.status, target).toBe(409);
      expect((await res.json()).message).toMatch(/itself or into one of its subfolders/);
    }
    const moved = await sendJson(tenant, 'PATCH', `/api/v1/folders/${mid._id}/move`, { parentFolderId: side._id });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ _id: mid._id, parentFolderId: side._id });
    expect((await (await sendJson(tenant, 'GET', `/api/v1/folders/${low._id}`)).json()).parentFolderId).toBe(mid._id);

    const toRoot = await (
      await sendJson(tenant, 'PATCH', `/api/v1/folders/${mid._id}/move`, { parentFolderId: null })
    ).json();
    expect(toRoot.parentFolderId).toBeNull();

    expect(
      await (await sendJson(tenant, 'PATCH', `/api/v1/folders/${mid._id}/move`, { parentFolderId: 'nope' })).json(),
    ).toEqual(FOLDER_NOT_FOUND);
    expect((await sendJson(tenant, 'PATCH', '/api/v1/folders/nope/move', { parentFolderId: null })).status).toBe(404);
    const theirs = await folder(other, 'Theirs');
    expect(
      (await sendJson(tenant, 'PATCH', `/api/v1/folders/${mid._id}/move`, { parentFolderId: theirs._id })).status,
    ).toBe(404);
    expect((await sendJson(other, 'PATCH', `/api/v1/folders/${mid._id}/move`, { parentFolderId: null })).status).toBe(
      404,
    );
    expect(
      (await sendJson(other, 'PATCH', `/api/v1/folders/${theirs._id}/move`, { parentFolderId: mid._id })).status,
    ).toBe(404);
    expect((await sendJson(tenant, 'PATCH', `/api/v1/folders/${mid._id}/move`, {})).status).toBe(400);
  });

  it('never lets two concurrent moves make a cycle', async () => {
    const t = await stack.newTenant();
    for (let round = 0; round < 10; round++) {
      const a = await folder(t, `A${round}`);
      const b = await folder(t, `B${round}`);
      const [ab, ba] = await Promise.all([
        sendJson(t, 'PATCH', `/api/v1/folders/${a._id}/move`, { parentFolderId: b._id }),
        sendJson(t, 'PATCH', `/api/v1/folders/${b._id}/move`, { parentFolderId: a._id }),
      ]);
      expect([ab.status, ba.status].sort()).toEqual([200, 409]);
    }
    const rows = await stack.db
      .selectFrom('folders')
      .select(['id', 'parent_folder_id'])
      .where('organization_id', '=', t.organizationId)
      .execute();
    const parentOf = new Map(rows.map((r) => [r.id, r.parent_folder_id]));
    for (const row of rows) {
      const seen = new Set<string>();
      for (let id: string | null | undefined = row.id; id; id = parentOf.get(id)) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
  });

  it('deletes only an empty folder (409 otherwise), forgets deleted materials, and answers 404 afterwards', async () => {
    const parent = await folder(tenant, 'To delete');
    const child = await folder(tenant, 'Child', parent._id);
    const withSub = await sendJson(tenant, 'DELETE', `/api/v1/folders/${parent._id}`);
    expect(withSub.status).toBe(409);
    expect((await withSub.json()).message).toMatch(/0 material\(s\) and 1 subfolder/);

    const material = await textMaterial(tenant, 'Inside', child._id);
    expect((await sendJson(tenant, 'DELETE', `/api/v1/folders/${child._id}`)).status).toBe(409);
    expect((await sendJson(other, 'DELETE', `/api/v1/folders/${child._id}`)).status).toBe(404);

    await sendJson(tenant, 'DELETE', `/api/v1/materials/${material._id}`);
    const deleted = await sendJson(tenant, 'DELETE', `/api/v1/folders/${child._id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, id: child._id });
    expect((await sendJson(tenant, 'GET', `/api/v1/folders/${child._id}`)).status).toBe(404);
    const row = await stack.db
      .selectFrom('materials')
      .select(['folder_id', 'status'])
      .where('id', '=', material._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ folder_id: null, status: 'deleted' });

    expect((await sendJson(tenant, 'DELETE', `/api/v1/folders/${parent._id}`)).status).toBe(200);
    expect((await sendJson(tenant, 'DELETE', `/api/v1/folders/${parent._id}`)).status).toBe(404);
  });
});

describe('folder metadata', () => {
  const upload = async (name: string, bytes: number, folderId?: string) => {
    const data = new FormData();
    data.append('name', name);
    if (folderId) data.append('folderId', folderId);
    data.append('file', new Blob(['x'.repeat(bytes)], { type: 'text/plain' }), `${name}.txt`);
    const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: data });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { _id: string };
  };
  const metadataOf = async (id: string) =>
    (await (await sendJson(tenant, 'GET', `/api/v1/folders/${id}`)).json()).metadata;
  const counts = async (id: string) => {
    const { materialCount, totalSize } = await metadataOf(id);
    return { materialCount, totalSize };
  };

  it('create and update accept color and icon; null clears one, leaving it out keeps it', async () => {
    const res = await sendJson(tenant, 'POST', '/api/v1/folders', {
      name: 'Painted',
      metadata: { color: '#3b82f6', icon: 'flask' },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.metadata).toMatchObject({ color: '#3b82f6', icon: 'flask', materialCount: 0, totalSize: 0 });
    const patched = await (
      await sendJson(tenant, 'PATCH', `/api/v1/folders/${created._id}`, { metadata: { color: null } })
    ).json();
    expect(patched.metadata).toMatchObject({ color: null, icon: 'flask' });
    const renamed = await (
      await sendJson(tenant, 'PATCH', `/api/v1/folders/${created._id}`, { name: 'Repainted' })
    ).json();
    expect(renamed.metadata).toMatchObject({ color: null, icon: 'flask' });
    for (const metadata of [{ color: 7 }, { icon: '' }, { color: 'x'.repeat(65) }, { materialCount: 3 }]) {
      expect((await sendJson(tenant, 'POST', '/api/v1/folders', { name: 'Bad', metadata })).status).toBe(400);
      expect((await sendJson(tenant, 'PATCH', `/api/v1/folders/${created._id}`, { metadata })).status).toBe(400);
    }
  });

  it('counts and sizes stay exact through uploads, moves, bulk moves and deletes', async () => {
    const a = await folder(tenant, 'Counted A');
    const b = await folder(tenant, 'Counted B');
    const created = (await metadataOf(a._id)).lastActivity;
    // By hand: 100 + 250 + 4000 bytes in A, nothing in B.
    const m1 = await upload('m1', 100, a._id);
    const m2 = await upload('m2', 250, a._id);
    const m3 = await upload('m3', 4000, a._id);
    await upload('loose', 7, undefined);
    expect(await counts(a._id)).toEqual({ materialCount: 3, totalSize: 4350 });
    expect(await counts(b._id)).toEqual({ materialCount: 0, totalSize: 0 });
    expect(Date.parse((await metadataOf(a._id)).lastActivity)).toBeGreaterThanOrEqual(Date.parse(created));

    // m2 moves to B: A 100 + 4000, B 250.
    expect((await sendJson(tenant, 'POST', `/api/v1/materials/${m2._id}/move`, { folderId: b._id })).status).toBe(200);
    expect(await counts(a._id)).toEqual({ materialCount: 2, totalSize: 4100 });
    expect(await counts(b._id)).toEqual({ materialCount: 1, totalSize: 250 });

    // m1 and m3 move to B at once, m2 (already there) with them: A empty, B 4350.
    const bulk = await sendJson(tenant, 'POST', '/api/v1/materials/bulk/move', {
      materialIds: [m1._id, m2._id, m3._id],
      folderId: b._id,
    });
    expect(bulk.status).toBe(200);
    expect(await counts(a._id)).toEqual({ materialCount: 0, totalSize: 0 });
    expect(await counts(b._id)).toEqual({ materialCount: 3, totalSize: 4350 });

    // m3 leaves folders altogether, m1 is deleted: B holds m2 only.
    expect((await sendJson(tenant, 'POST', `/api/v1/materials/${m3._id}/move`, { folderId: null })).status).toBe(200);
    expect((await sendJson(tenant, 'DELETE', `/api/v1/materials/${m1._id}`)).status).toBe(200);
    expect(await counts(b._id)).toEqual({ materialCount: 1, totalSize: 250 });
    const tree = await (await sendJson(tenant, 'GET', '/api/v1/folders/tree')).json();
    const node = tree.find((f: { _id: string }) => f._id === b._id);
    expect({ materialCount: node.materialCount, ...node.metadata }).toMatchObject({ materialCount: 1, totalSize: 250 });
    expect((await (await sendJson(tenant, 'GET', `/api/v1/folders/${b._id}`)).json()).materialCount).toBe(1);

    // Processing the uploads changes nothing; A is empty again and may be deleted, B may not.
    for (const m of [m2, m3]) await waitForStatus(tenant, m._id, ['active', 'error']);
    expect(await counts(b._id)).toEqual({ materialCount: 1, totalSize: 250 });
    expect((await sendJson(tenant, 'DELETE', `/api/v1/folders/${b._id}`)).status).toBe(409);
    expect((await sendJson(tenant, 'DELETE', `/api/v1/folders/${a._id}`)).status).toBe(200);
  });
});

describe('folderId on materials', () => {
  it('must name a folder of the same organization on every path that takes one', async () => {
    const mine = await folder(tenant, 'Mine');
    const theirs = await folder(other, 'Theirs');
    const material = await textMaterial(tenant, 'Movable');
    const before = (await (await sendJson(tenant, 'GET', '/api/v1/materials?limit=1')).json()).totalCount;

    for (const folderId of ['no-such-folder', theirs._id]) {
      const upload = new FormData();
      upload.append('name', 'file');
      upload.append('folderId', folderId);
      upload.append('file', new Blob(['some words']), 'a.txt');
      const attempts: [string, Promise<Response>][] = [
        ['upload', tenant.request('/api/v1/materials/upload', { method: 'POST', body: upload })],
        ['create', sendJson(tenant, 'POST', '/api/v1/materials', { name: 'n', content: { text: 't' }, folderId })],
        [
          'upload-and-process',
          sendJson(tenant, 'POST', '/api/v1/materials/upload-and-process', {
            name: 'n',
            content: { text: 't' },
            folderId,
          }),
        ],
        [
          'upload/url',
          sendJson(tenant, 'POST', '/api/v1/materials/upload/url', {
            name: 'n',
            url: 'http://127.0.0.1:9/a',
            folderId,
          }),
        ],
        [
          'upload/url-and-process',
          sendJson(tenant, 'POST', '/api/v1/materials/upload/url-and-process', {
            name: 'n',
            url: 'http://127.0.0.1:9/a',
            folderId,
          }),
        ],
        [
          'batch',
          sendJson(tenant, 'POST', '/api/v1/materials/batch', {
            materials: [{ name: 'n', filename: 'a.txt', contentType: 'text/plain', folderId }],
          }),
        ],
        [
          'presigned-url',
          sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
            name: 'n',
            filename: 'a.txt',
            contentType: 'text/plain',
            folderId,
          }),
        ],
        ['move', sendJson(tenant, 'POST', `/api/v1/materials/${material._id}/move`, { folderId })],
        [
          'bulk move',
          sendJson(tenant, 'POST', '/api/v1/materials/bulk/move', { materialIds: [material._id], folderId }),
        ],
        ['list', sendJson(tenant, 'GET', `/api/v1/materials?folderId=${folderId}`)],
        [
          'search',
          sendJson(tenant, 'POST', '/api/v1/materials/search', { query: 'words', folderIds: [mine._id, folderId] }),
        ],
      ];
      for (const [what, response] of attempts) {
        const res = await response;
        expect(res.status, `${what} ${folderId}`).toBe(404);
        expect(await res.json(), what).toEqual(FOLDER_NOT_FOUND);
      }
    }
    expect((await (await sendJson(tenant, 'GET', '/api/v1/materials?limit=1')).json()).totalCount).toBe(before);
    expect((await (await sendJson(tenant, 'GET', `/api/v1/materials/${material._id}`)).json()).folderId).toBeNull();

    const placed = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'placed',
      content: { text: 't' },
      folderId: mine._id,
    });
    expect(placed.status).toBe(201);
    expect((await placed.json()).folderId).toBe(mine._id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_SCHEME, buildOpenApiDocument } from '@quire/api';
import { revokeApiKey } from '@quire/db';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let owner: Tenant;
let intruder: Tenant;
let active: { _id: string; content: { s3Key?: string } };
let pending: { materialId: string; s3Key: string };

beforeAll(async () => {
  stack = await startTestStack();
  owner = await stack.newTenant();
  intruder = await stack.newTenant();
  const form = new FormData();
  form.append('name', 'private notes');
  form.append('file', new Blob(['owner only']), 'private.txt');
  active = await (
    await owner.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: form })
  ).json();
  const batch = await owner.request('/api/v1/materials/batch', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ materials: [{ name: 'pending', filename: 'p.txt', contentType: 'text/plain' }] }),
  });
  pending = (await batch.json())[0];
  await fetch(
    (
      await (
        await owner.request('/api/v1/materials/batch', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ materials: [{ name: 'x', filename: 'x.txt', contentType: 'text/plain' }] }),
        })
      ).json()
    )[0].uploadUrl,
    { method: 'PUT', body: 'x' },
  );
});
afterAll(() => stack?.close());

const json = (t: Tenant, method: string, path: string, body?: unknown) =>
  t.request(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('another organization', () => {
  it('sees only 404s for every endpoint that takes a material, and never lists it', async () => {
    const id = active._id;
    const attempts: [string, Promise<Response>][] = [
      ['GET /:id', json(intruder, 'GET', `/api/v1/materials/${id}`)],
      ['PATCH /:id', json(intruder, 'PATCH', `/api/v1/materials/${id}`, { references: [] })],
      ['DELETE /:id', json(intruder, 'DELETE', `/api/v1/materials/${id}`)],
      [
        'complete',
        json(intruder, 'POST', '/api/v1/materials/upload/complete', {
          materialId: pending.materialId,
          s3Key: pending.s3Key,
        }),
      ],
      ['move', json(intruder, 'POST', `/api/v1/materials/${id}/move`, { folderId: null })],
      ['rename', json(intruder, 'POST', `/api/v1/materials/${id}/rename`, { name: 'mine now' })],
      ['bulk move', json(intruder, 'POST', '/api/v1/materials/bulk/move', { materialIds: [id], folderId: null })],
      ['reprocess', json(intruder, 'POST', `/api/v1/materials/${id}/reprocess`)],
      ['download-url', json(intruder, 'GET', `/api/v1/materials/${id}/download-url`)],
      ['search', json(intruder, 'POST', '/api/v1/materials/search', { query: 'owner', materialIds: [id] })],
    ];
    for (const [what, response] of attempts) expect((await response).status, what).toBe(404);

    const folder = await (await json(owner, 'POST', '/api/v1/folders', { name: 'owner folder' })).json();
    const folderAttempts: [string, Promise<Response>][] = [
      ['GET folder', json(intruder, 'GET', `/api/v1/folders/${folder._id}`)],
      ['PATCH folder', json(intruder, 'PATCH', `/api/v1/folders/${folder._id}`, { name: 'mine' })],
      ['DELETE folder', json(intruder, 'DELETE', `/api/v1/folders/${folder._id}`)],
      ['folder materials', json(intruder, 'GET', `/api/v1/folders/${folder._id}/materials`)],
      ['move folder', json(intruder, 'PATCH', `/api/v1/folders/${folder._id}/move`, { parentFolderId: null })],
      [
        'create in folder',
        json(intruder, 'POST', '/api/v1/materials', { name: 'n', content: { text: 't' }, folderId: folder._id }),
      ],
      ['list by folder', json(intruder, 'GET', `/api/v1/materials?folderId=${folder._id}`)],
      ['live status', json(intruder, 'GET', `/api/v1/materials/${id}/events`)],
    ];
    for (const [what, response] of folderAttempts) expect((await response).status, what).toBe(404);
    expect(await (await json(intruder, 'GET', '/api/v1/folders')).json()).toEqual([]);
    expect((await json(owner, 'GET', `/api/v1/folders/${folder._id}`)).status).toBe(200);

    const list = await (await json(intruder, 'GET', '/api/v1/materials?limit=200')).json();
    expect(list.totalCount).toBe(0);
    const search = await (await json(intruder, 'GET', '/api/v1/materials?search=private')).json();
    expect(search.materials).toEqual([]);
    const passages = await (await json(intruder, 'POST', '/api/v1/materials/search', { query: 'owner only' })).json();
    expect(passages.results).toEqual([]);

    // The owner's material is untouched by all of it.
    const mine = await (await json(owner, 'GET', `/api/v1/materials/${id}`)).json();
    expect(mine).toMatchObject({ status: 'active', name: 'private notes', folderId: null });
    expect((await json(owner, 'GET', `/api/v1/materials/${pending.materialId}`)).status).toBe(200);
  });

  it('cannot point an upload URL of its own at the owner objects', async () => {
    const batch = await (
      await json(intruder, 'POST', '/api/v1/materials/batch', {
        materials: [{ name: 'i', filename: 'i.txt', contentType: 'text/plain' }],
      })
    ).json();
    const url = new URL(batch[0].uploadUrl);
    url.searchParams.set('key', active.content.s3Key!);
    expect((await fetch(url, { method: 'PUT', body: 'overwritten' })).status).toBe(403);
  });

  it('gets the same 403 body for a missing, unknown or revoked key on every endpoint that takes a key', async () => {
    // Every operation the OpenAPI document says needs the key, so a new route cannot escape this test.
    const paths: [string, string][] = [];
    for (const [template, operations] of Object.entries(buildOpenApiDocument().paths ?? {})) {
      for (const [method, operation] of Object.entries(
        operations as Record<string, { security?: Record<string, unknown>[] }>,
      )) {
        if (!operation.security?.some((requirement) => API_KEY_SCHEME in requirement)) continue;
        paths.push([method.toUpperCase(), template.replace(/\{[^}]+\}/g, active._id)]);
      }
    }
    expect(paths.length).toBeGreaterThan(30);
    const revoked = await stack.newTenant();
    await revokeApiKey(stack.db, revoked.keyId);
    for (const [method, path] of paths) {
      for (const headers of [
        {},
        { 'x-api-key': 'qk_unknownunkno_' + 'x'.repeat(43) },
        { 'x-api-key': revoked.apiKey },
      ]) {
        const res = await fetch(`${stack.url}${path}`, { method, headers });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(await res.json()).toEqual({ error: 'Unauthorized' });
      }
    }
  });
});

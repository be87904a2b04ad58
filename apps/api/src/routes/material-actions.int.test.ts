import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSIONS } from '@quire/extract';
import { createLocalStore } from '@quire/storage';
import {
  localStorageOf,
  sendJson,
  startTestStack,
  waitForStatus,
  type StorageDriver,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
  other = await stack.newTenant();
});
afterAll(() => stack?.close());

const MATERIAL_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Material not found' };

async function activeText(t: Tenant, name: string, text = `${name} body`) {
  const res = await sendJson(t, 'POST', '/api/v1/materials/upload-and-process', { name, content: { text } });
  expect(res.status).toBe(201);
  return res.json();
}

async function newFolder(t: Tenant, name: string) {
  return (await sendJson(t, 'POST', '/api/v1/folders', { name })).json();
}

describe('POST / (create without waiting)', () => {
  it('answers 201 at once with the material processing, which then becomes active', async () => {
    const folder = await newFolder(tenant, 'Inbox');
    const res = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'Quick note',
      content: { text: 'Tectonic plates drift slowly.' },
      folderId: folder._id,
      references: [{ title: 'Geo', url: 'https://example.org/geo' }],
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({
      name: 'Quick note',
      status: 'processing',
      contentType: 'text',
      folderId: folder._id,
      content: { text: 'Tectonic plates drift slowly.' },
      references: [{ title: 'Geo', url: 'https://example.org/geo' }],
    });
    const done = await waitForStatus(tenant, created._id, ['active', 'error']);
    expect(done.status).toBe('active');
    expect(done.metadata.extractedText).toBe('Tectonic plates drift slowly.');
  });

  it('rejects bad bodies with 400', async () => {
    for (const body of [
      {},
      { name: 'x' },
      { name: 'x', content: {} },
      { content: { text: 'a' } },
      { name: 'x', content: { text: 'a' }, timeoutMs: 1000 },
    ]) {
      const res = await sendJson(tenant, 'POST', '/api/v1/materials', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('POST /upload/presigned-url', () => {
  it('answers one upload URL that /upload/complete turns into a material with the requested options', async () => {
    const folder = await newFolder(tenant, 'Uploads');
    const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
      filename: 'notes.txt',
      contentType: 'text/plain',
      name: 'Presigned notes',
      folderId: folder._id,
      extractImages: false,
      references: [{ title: 'Ref', url: 'https://example.org/ref' }],
    });
    expect(res.status).toBe(200);
    const handle = await res.json();
    expect(Object.keys(handle).sort()).toEqual(['materialId', 's3Key', 'uploadUrl']);
    expect(handle.s3Key).toBe(`${tenant.organizationId}/${handle.materialId}/original`);
    const pending = await (await tenant.request(`/api/v1/materials/${handle.materialId}`)).json();
    expect(pending).toMatchObject({
      status: 'pending_upload',
      name: 'Presigned notes',
      folderId: folder._id,
      references: [{ title: 'Ref', url: 'https://example.org/ref' }],
    });

    expect((await fetch(handle.uploadUrl, { method: 'PUT', body: 'Presigned words about comets' })).status).toBe(200);
    const complete = await sendJson(tenant, 'POST', '/api/v1/materials/upload/complete', {
      materialId: handle.materialId,
      s3Key: handle.s3Key,
    });
    expect(complete.status).toBe(200);
    const done = await waitForStatus(tenant, handle.materialId, ['active', 'error']);
    expect(done.status).toBe('active');
    expect(done.metadata.extractedText).toBe('Presigned words about comets');
    const row = await stack.db
      .selectFrom('materials')
      .select('extract_images')
      .where('id', '=', handle.materialId)
      .executeTakeFirstOrThrow();
    expect(row.extract_images).toBe(false);
  });

  it('validates the body (400) and the announced type (415)', async () => {
    const base = { filename: 'a.pdf', contentType: 'application/pdf', name: 'a' };
    for (const body of [
      { ...base, filename: undefined },
      { ...base, name: '' },
      { ...base, contentType: 'pdf' },
      { ...base, extractImages: 'no' },
      { ...base, extra: 1 },
    ]) {
      const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
          ...base,
          contentType: 'application/zip',
        })
      ).status,
    ).toBe(415);
  });
});

describe('POST /:id/move, /:id/rename and /bulk/move', () => {
  it('moves a material into a folder and out again', async () => {
    const folder = await newFolder(tenant, 'Target');
    const m = await activeText(tenant, 'Mover');
    const moved = await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/move`, { folderId: folder._id });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ _id: m._id, folderId: folder._id, status: 'active' });
    const inFolder = await (await sendJson(tenant, 'GET', `/api/v1/folders/${folder._id}/materials`)).json();
    expect(inFolder.materials.map((x: { _id: string }) => x._id)).toEqual([m._id]);

    const out = await (await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/move`, { folderId: null })).json();
    expect(out.folderId).toBeNull();

    expect(await (await sendJson(tenant, 'POST', '/api/v1/materials/nope/move', { folderId: null })).json()).toEqual(
      MATERIAL_NOT_FOUND,
    );
    expect((await sendJson(other, 'POST', `/api/v1/materials/${m._id}/move`, { folderId: null })).status).toBe(404);
    for (const body of [{}, { folderId: '' }, { folderId: 5 }, { folderId: null, extra: true }]) {
      expect(
        (await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/move`, body)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  it('renames a material', async () => {
    const m = await activeText(tenant, 'Old name');
    const res = await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/rename`, { name: '  New name ' });
    expect(res.status).toBe(200);
    const renamed = await res.json();
    expect(renamed).toMatchObject({ _id: m._id, name: 'New name' });
    expect(new Date(renamed.updatedAt).getTime()).toBeGreaterThan(new Date(m.updatedAt).getTime());
    expect((await (await sendJson(tenant, 'GET', `/api/v1/materials/${m._id}`)).json()).name).toBe('New name');

    for (const body of [{}, { name: '' }, { name: 'x'.repeat(501) }]) {
      expect((await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/rename`, body)).status).toBe(400);
    }
    expect((await sendJson(tenant, 'POST', '/api/v1/materials/nope/rename', { name: 'x' })).status).toBe(404);
    expect((await sendJson(other, 'POST', `/api/v1/materials/${m._id}/rename`, { name: 'Stolen' })).status).toBe(404);
    await sendJson(tenant, 'DELETE', `/api/v1/materials/${m._id}`);
    expect((await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/rename`, { name: 'Ghost' })).status).toBe(404);
  });

  it('moves many materials at once, all or none', async () => {
    const folder = await newFolder(tenant, 'Bulk');
    const items = [await activeText(tenant, 'b1'), await activeText(tenant, 'b2'), await activeText(tenant, 'b3')];
    const ids = items.map((m) => m._id);
    const res = await sendJson(tenant, 'POST', '/api/v1/materials/bulk/move', {
      materialIds: [...ids, ids[0]],
      folderId: folder._id,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, movedCount: 3 });
    expect((await (await sendJson(tenant, 'GET', `/api/v1/folders/${folder._id}`)).json()).materialCount).toBe(3);

    const foreign = await activeText(other, 'theirs');
    for (const stranger of ['nope', foreign._id]) {
      const partial = await sendJson(tenant, 'POST', '/api/v1/materials/bulk/move', {
        materialIds: [ids[0], stranger],
        folderId: null,
      });
      expect(partial.status).toBe(404);
      expect(await partial.json()).toEqual(MATERIAL_NOT_FOUND);
    }
    expect((await (await sendJson(tenant, 'GET', `/api/v1/materials/${ids[0]}`)).json()).folderId).toBe(folder._id);
    expect((await (await sendJson(other, 'GET', `/api/v1/materials/${foreign._id}`)).json()).folderId).toBeNull();

    const unfiled = await (
      await sendJson(tenant, 'POST', '/api/v1/materials/bulk/move', { materialIds: ids, folderId: null })
    ).json();
    expect(unfiled).toEqual({ success: true, movedCount: 3 });
    expect((await (await sendJson(tenant, 'GET', `/api/v1/folders/${folder._id}`)).json()).materialCount).toBe(0);

    const tooMany = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
    for (const body of [
      { materialIds: [], folderId: null },
      { materialIds: tooMany, folderId: null },
      { materialIds: ids },
      { materialIds: 'x', folderId: null },
    ]) {
      expect((await sendJson(tenant, 'POST', '/api/v1/materials/bulk/move', body)).status).toBe(400);
    }
  });
});

describe('POST /:id/reprocess', () => {
  it('reprocesses a failed material, refuses one waiting for its upload (409), and knows no deleted or foreign one', async () => {
    const broken = new FormData();
    broken.append('name', 'broken');
    broken.append(
      'file',
      new Blob([Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)])], { type: 'application/pdf' }),
      'b.pdf',
    );
    const failed = await (
      await tenant.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: broken })
    ).json();
    expect(failed.material.status).toBe('error');

    const res = await sendJson(tenant, 'POST', `/api/v1/materials/${failed.material._id}/reprocess`);
    expect(res.status).toBe(200);
    const reprocessing = await res.json();
    expect(reprocessing.status).toBe('processing');
    expect(reprocessing.metadata.error).toBeUndefined();
    const again = await waitForStatus(tenant, failed.material._id, ['active', 'error']);
    expect(again.status).toBe('error');
    expect(again.metadata.error.code).toBe('CORRUPT');

    const [slot] = await (
      await sendJson(tenant, 'POST', '/api/v1/materials/batch', {
        materials: [{ name: 'p', filename: 'p.txt', contentType: 'text/plain' }],
      })
    ).json();
    const pending = await sendJson(tenant, 'POST', `/api/v1/materials/${slot.materialId}/reprocess`);
    expect(pending.status).toBe(409);
    expect((await pending.json()).message).toMatch(/pending_upload/);

    const m = await activeText(tenant, 'to be deleted');
    expect((await sendJson(other, 'POST', `/api/v1/materials/${m._id}/reprocess`)).status).toBe(404);
    await sendJson(tenant, 'DELETE', `/api/v1/materials/${m._id}`);
    expect(await (await sendJson(tenant, 'POST', `/api/v1/materials/${m._id}/reprocess`)).json()).toEqual(
      MATERIAL_NOT_FOUND,
    );
  });

  it('records which extractor version made the result, so older results are one query away', async () => {
    const m = await activeText(tenant, 'versioned');
    expect(m.metadata.extractor).toEqual(EXTRACTOR_VERSIONS.text);
    const olderThan = async (version: number) => {
      const { rows } = await sql<{ id: string }>`
        select id from materials
        where organization_id = ${tenant.organizationId} and status = 'active' and content_type = 'text'
          and coalesce((metadata->'extractor'->>'version')::int, 0) < ${version}
      `.execute(stack.db);
      return rows.map((r) => r.id);
    };
    expect(await olderThan(EXTRACTOR_VERSIONS.text.version + 1)).toContain(m._id);
    expect(await olderThan(EXTRACTOR_VERSIONS.text.version)).not.toContain(m._id);
  });
});

describe.each<StorageDriver>(['local', 's3'])('GET /:id/download-url (%s storage)', (driver) => {
  let s: TestStack;
  let t: Tenant;
  beforeAll(async () => {
    s = driver === 'local' ? stack : await startTestStack({ storage: 's3' });
    t = driver === 'local' ? tenant : await s.newTenant();
  });
  afterAll(async () => {
    if (driver === 's3') await s?.close();
  });

  it('answers a signed URL for the original, for 1 to 604800 seconds', async () => {
    const form = new FormData();
    form.append('name', 'download me');
    form.append('file', new Blob(['downloadable words']), 'words.txt');
    const m = await (await t.request('/api/v1/materials/upload', { method: 'POST', body: form })).json();

    const res = await t.request(`/api/v1/materials/${m._id}/download-url`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['downloadUrl']);
    const file = await fetch(body.downloadUrl);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('downloadable words');
    expect(file.headers.get('content-disposition')).toContain('words.txt');

    const week = await (await t.request(`/api/v1/materials/${m._id}/download-url?expiresIn=604800`)).json();
    const url = new URL(week.downloadUrl);
    if (driver === 's3') expect(url.searchParams.get('X-Amz-Expires')).toBe('604800');
    else expect(Number(url.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(604799);

    for (const q of ['expiresIn=0', 'expiresIn=604801', 'expiresIn=abc', 'expiresIn=1.5']) {
      const bad = await t.request(`/api/v1/materials/${m._id}/download-url?${q}`);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).message).toContain('expiresIn');
    }
    expect((await t.request('/api/v1/materials/nope/download-url')).status).toBe(404);
    expect((await other.request(`/api/v1/materials/${m._id}/download-url`)).status).toBe(404);
  });
});

describe('download URLs of the local driver', () => {
  it('expire: a 1-second URL works at once and is refused two seconds later', async () => {
    const form = new FormData();
    form.append('name', 'short-lived');
    form.append('file', new Blob(['gone soon']), 'soon.txt');
    const m = await (await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form })).json();
    const { downloadUrl } = await (await tenant.request(`/api/v1/materials/${m._id}/download-url?expiresIn=1`)).json();
    expect((await fetch(downloadUrl)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(downloadUrl);
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toMatch(/expired/);

    const tampered = new URL(downloadUrl);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 3600));
    expect((await fetch(tampered)).status).toBe(403);
    const forged = createLocalStore({
      rootDir: localStorageOf(stack).dir,
      publicUrl: stack.url,
      signingSecret: 'not-the-real-secret-at-all',
    });
    expect((await fetch(await forged.presignGet(m.content.s3Key, 60))).status).toBe(403);
  });

  it("serves a text material's text as text/plain, and is 409 while an upload is awaited", async () => {
    const text = await activeText(tenant, 'inline only');
    const res = await tenant.request(`/api/v1/materials/${text._id}/download-url`);
    expect(res.status).toBe(200);
    const download = await fetch((await res.json()).downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(download.headers.get('content-disposition')).toContain('inline only.txt');
    expect(await download.text()).toBe(
      (await (await tenant.request(`/api/v1/materials/${text._id}`)).json()).content.text,
    );
    // Asking again serves the same file; deleting the material removes it.
    const again = await (await tenant.request(`/api/v1/materials/${text._id}/download-url`)).json();
    expect((await fetch(again.downloadUrl)).status).toBe(200);
    expect((await tenant.request(`/api/v1/materials/${text._id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(again.downloadUrl)).status).toBe(404);

    const [slot] = await (
      await sendJson(tenant, 'POST', '/api/v1/materials/batch', {
        materials: [{ name: 'p', filename: 'p.txt', contentType: 'text/plain' }],
      })
    ).json();
    expect((await tenant.request(`/api/v1/materials/${slot.materialId}/download-url`)).status).toBe(409);
  });
});

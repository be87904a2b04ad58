import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, startTestStack, waitForStatus, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const created = new Date('2026-11-20T10:00:00.000Z');

/**
 * A materials row exactly as versions before the tagged source wrote it: `content` is one flat object
 * (`{text}`, `{url, s3Key, …}` or `{s3Key, filename, fileSize, mimeType}`) whose kind follows from its fields.
 */
async function insertFlatRow(row: {
  contentType: string;
  status: string;
  content: object;
  metadata?: object;
  storageBytes?: number;
  id?: string;
}) {
  const id = row.id ?? randomUUID();
  await stack.db
    .insertInto('materials')
    .values({
      id,
      organization_id: tenant.organizationId,
      folder_id: null,
      name: `flat ${row.contentType}`,
      content_type: row.contentType,
      status: row.status as 'active',
      content: JSON.stringify(row.content),
      metadata: JSON.stringify(row.metadata ?? {}),
      references: JSON.stringify([{ title: 'Src', url: 'https://example.org/src' }]),
      extract_images: false,
      storage_bytes: row.storageBytes ?? 0,
      created_at: created,
      updated_at: created,
    })
    .execute();
  return id;
}

describe('rows written before the material had a typed source', () => {
  it('reads a processed text material as it was written', async () => {
    const metadata = {
      extractedText: 'Mitochondria are the powerhouse of the cell.',
      wordCount: 7,
      textLength: 44,
      processingMs: 12,
      extractor: { name: 'text', version: 2 },
    };
    const id = await insertFlatRow({
      contentType: 'text',
      status: 'active',
      content: { text: metadata.extractedText },
      metadata,
    });
    const res = await tenant.request(`/api/v1/materials/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      _id: id,
      contentType: 'text',
      status: 'active',
      content: { text: metadata.extractedText },
      metadata,
      references: [{ title: 'Src', url: 'https://example.org/src' }],
      createdAt: created.toISOString(),
    });
  });

  it('reads an uploaded file, signs its original, reprocesses it and deletes it with its object', async () => {
    const pdf = await makePdf(['Flat rows still read.']);
    const s3Key = `${tenant.organizationId}/${randomUUID()}/original`;
    await stack.store.put(s3Key, pdf, { contentType: 'application/pdf' });
    const content = { s3Key, filename: 'old.pdf', fileSize: pdf.length, mimeType: 'application/pdf' };
    const metadata = {
      pageCount: 1,
      pages: [{ page: 1, offset: 0, length: 21, wordCount: 4 }],
      extractedText: 'Flat rows still read.',
      wordCount: 4,
      textLength: 21,
      processingMs: 80,
      peakMemoryMb: 90,
      extractor: { name: 'pdf-parse', version: 2 },
      someFieldOfAnOlderVersion: { kept: true },
    };
    const id = await insertFlatRow({
      contentType: 'pdf',
      status: 'active',
      content,
      metadata,
      storageBytes: pdf.length,
    });

    const read = await (await tenant.request(`/api/v1/materials/${id}`)).json();
    expect(read.content).toEqual({ ...content, s3Url: expect.any(String) });
    expect(read.metadata).toEqual(metadata);
    expect(Buffer.from(await (await fetch(read.content.s3Url)).arrayBuffer()).equals(pdf)).toBe(true);
    const { downloadUrl } = await (await tenant.request(`/api/v1/materials/${id}/download-url`)).json();
    expect((await fetch(downloadUrl)).status).toBe(200);

    const reprocess = await tenant.request(`/api/v1/materials/${id}/reprocess`, { method: 'POST' });
    expect(reprocess.status).toBe(200);
    const done = await waitForStatus(tenant, id, ['active', 'error']);
    expect(done.status).toBe('active');
    expect(done.content).toMatchObject(content);
    expect(done.metadata).toMatchObject({
      pageCount: 1,
      extractedText: 'Flat rows still read.',
      someFieldOfAnOlderVersion: { kept: true },
    });

    expect((await tenant.request(`/api/v1/materials/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await stack.store.stat(s3Key)).toBeNull();
  });

  it('reads a fetched URL with its file fields, and a failed one with its error', async () => {
    const fetched = {
      url: 'https://example.org/paper.pdf',
      s3Key: `${tenant.organizationId}/${randomUUID()}/original`,
      filename: 'paper.pdf',
      fileSize: 1234,
      mimeType: 'application/pdf',
    };
    const active = await insertFlatRow({
      contentType: 'pdf',
      status: 'active',
      content: fetched,
      metadata: { requestedType: 'pdf' },
    });
    expect((await (await tenant.request(`/api/v1/materials/${active}`)).json()).content).toEqual({
      ...fetched,
      s3Url: expect.any(String),
    });

    const error = { code: 'FETCH_FAILED', message: 'https://example.org/gone answered 404' };
    const failed = await insertFlatRow({
      contentType: 'text',
      status: 'error',
      content: { url: 'https://example.org/gone' },
      metadata: { error, processingMs: 30 },
    });
    const body = await (await tenant.request(`/api/v1/materials/${failed}`)).json();
    expect(body).toMatchObject({ status: 'error', content: { url: 'https://example.org/gone' }, metadata: { error } });
    expect(body.content).not.toHaveProperty('s3Url');
  });

  it('completes a batch slot written before, whose content had no file size yet', async () => {
    const id = randomUUID();
    const s3Key = `${tenant.organizationId}/${id}/original`;
    await insertFlatRow({
      id,
      contentType: 'pdf',
      status: 'pending_upload',
      content: { s3Key, filename: 'slot.pdf', mimeType: 'application/pdf' },
    });
    const pending = await (await tenant.request(`/api/v1/materials/${id}`)).json();
    expect(pending.content).toEqual({ s3Key, filename: 'slot.pdf', mimeType: 'application/pdf' });

    const pdf = await makePdf(['A slot filled after the upgrade.']);
    await stack.store.put(s3Key, pdf, { contentType: 'application/pdf' });
    const completed = await tenant.request('/api/v1/materials/upload/complete', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialId: id, s3Key }),
    });
    expect(completed.status).toBe(200);
    expect((await waitForStatus(tenant, id, ['active', 'error'])).metadata.extractedText).toContain(
      'A slot filled after the upgrade.',
    );
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorageOf, pdfWithPictures, startTestStack, type Tenant, type TestStack } from '@quire/testkit';
import { sweepStaleMaterials } from '../sweeper.ts';
import { processMaterial } from './process-material.ts';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const pdfWithImage = () => pdfWithPictures(1, [{ page: 1, width: 300, height: 200 }]);

async function upload(body: Buffer, name: string) {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([body]), `${name}.pdf`);
  const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string };
}

const jobFor = (materialId: string) =>
  ({
    id: materialId,
    data: { materialId },
    attemptsMade: 0,
    opts: { attempts: 3 },
    updateProgress: async () => {},
  }) as unknown as Job<{
    materialId: string;
  }>;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('processMaterial', () => {
  it('run twice at once, ends active exactly once with no duplicate or orphaned derived objects', async () => {
    const { _id: id } = await upload(await pdfWithImage(), 'twice');
    const deps = { db: stack.db, store: stack.store, config: stack.config, logger: stack.api.logger };
    const results = await Promise.all([processMaterial(jobFor(id), deps), processMaterial(jobFor(id), deps)]);
    expect(results.map((r) => r.status).sort()).toEqual(['active', 'skipped']);

    const material = await (await tenant.request(`/api/v1/materials/${id}`)).json();
    expect(material.status).toBe('active');
    expect(material.metadata.images).toHaveLength(1);
    expect(material.metadata.images[0]).toMatchObject({ page: 1, width: 300, height: 200 });
    expect((await fetch(material.metadata.images[0].s3Url)).status).toBe(200);
    expect(material.metadata.processingMs).toBeGreaterThan(0);
    expect(material.metadata.peakMemoryMb).toBeGreaterThan(30);

    const recorded = await stack.db
      .selectFrom('material_objects')
      .select(['key', 'bytes'])
      .where('material_id', '=', id)
      .where('kind', '=', 'derived')
      .execute();
    // The picture and the text's segments (for `/text`).
    expect(recorded.map((o) => path.basename(o.key).replace(/^.*\./, '')).sort()).toEqual(['ndjson', 'webp']);
    expect(material.usage.derivedBytes).toBe(recorded.reduce((sum, o) => sum + o.bytes, 0));
    const onDisk = await filesUnder(
      path.join(localStorageOf(stack).dir, localStorageOf(stack).keyPrefix, tenant.organizationId, id, 'derived'),
    );
    expect(onDisk).toHaveLength(2);

    // A third run, as BullMQ may deliver after a stall, changes nothing.
    expect((await processMaterial(jobFor(id), deps)).status).toBe('skipped');
    const again = await (await tenant.request(`/api/v1/materials/${id}`)).json();
    expect(again.updatedAt).toBe(material.updatedAt);
  });

  it('skips a material deleted before its job ran', async () => {
    const { _id: id } = await upload(await pdfWithImage(), 'gone');
    expect((await tenant.request(`/api/v1/materials/${id}`, { method: 'DELETE' })).status).toBe(200);
    const deps = { db: stack.db, store: stack.store, config: stack.config, logger: stack.api.logger };
    expect((await processMaterial(jobFor(id), deps)).status).toBe('skipped');
    const objects = await stack.db
      .selectFrom('material_objects')
      .select('key')
      .where('material_id', '=', id)
      .where('kind', '=', 'derived')
      .execute();
    expect(objects).toEqual([]);
  });
});

describe('sweepStaleMaterials', () => {
  it('re-enqueues a material whose job was lost', async () => {
    const { _id: id } = await upload(await pdfWithImage(), 'lost');
    await stack.api.queue.remove(id);
    await stack.db
      .updateTable('materials')
      .set({ processing_started_at: new Date(Date.now() - 3600_000) })
      .where('id', '=', id)
      .execute();
    const swept = await sweepStaleMaterials({
      db: stack.db,
      queue: stack.api.queue,
      config: stack.config,
      logger: stack.api.logger,
    });
    expect(swept).toBeGreaterThanOrEqual(1);
    const job = await stack.api.queue.getJob(id);
    expect(job?.data).toEqual({ materialId: id, organizationId: tenant.organizationId });
    expect(await job?.getState()).toBe('prioritized');
  });
});

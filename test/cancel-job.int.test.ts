import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Job } from 'bullmq';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWebhook, newId } from '@quire/db';
import { chunkJobId } from '@quire/queue';
import {
  descendantsOf,
  imageHeavyPdf,
  isRunning,
  readAsSdk,
  sdk,
  seedMaterial,
  sendJson,
  spawnService,
  speechWithPauses,
  startTestStack,
  waitForStatus,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';
import { processMaterial } from '@quire/worker';

/**
 * `POST /{id}/cancel-job` through HTTP, against a real worker: a queued job, a running PDF, and a recording whose
 * chunks run on both slots, each ending `error`/`CANCELLED` with nothing left running, queued or stored; and a
 * cancel sent to another api process than the one that created the material.
 */

// "go forward ten meters" four times with 3 s pauses, cut into 5 s chunks: four chunk jobs.
const CHUNKED = { MEDIA_CHUNK_SECONDS: '5' };

let scratch: string;
let slowEngine: string;
let stack: TestStack;
let tenant: Tenant;
let webhookId: string;

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-cancel-'));
  // A speech engine that takes a minute over each chunk, so chunks are caught in flight.
  slowEngine = path.join(scratch, 'slow-pocketsphinx.sh');
  await fs.writeFile(slowEngine, '#!/bin/sh\nsleep 60\nexec pocketsphinx_continuous "$@"\n', { mode: 0o755 });
  stack = await startTestStack({ worker: false, config: { ...CHUNKED, POCKETSPHINX_PATH: slowEngine } });
  tenant = await stack.newTenant();
  // Deliveries are recorded for a subscribed webhook whatever becomes of them.
  webhookId = (
    await insertWebhook(stack.db, {
      id: newId(),
      organizationId: tenant.organizationId,
      url: 'http://127.0.0.1:9/hook',
      secret: 'whsec_cancel',
      events: ['material.failed'],
    })
  ).id;
});
afterAll(async () => {
  await stack?.close();
  await fs.rm(scratch, { recursive: true, force: true });
});

const cancel = (t: Tenant, id: string, api?: string) =>
  api
    ? fetch(`${api}/api/v1/materials/${id}/cancel-job`, { method: 'POST', headers: { 'x-api-key': t.apiKey } })
    : sendJson(t, 'POST', `/api/v1/materials/${id}/cancel-job`);

async function upload(body: Buffer, filename: string, type?: string) {
  const form = new FormData();
  form.append('name', filename);
  form.append('file', new Blob([body], type ? { type } : {}), filename);
  const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string };
}

const jobStatus = async (id: string) =>
  readAsSdk(
    sdk.MaterialGetJobStatusResponse,
    await (await tenant.request(`/api/v1/materials/${id}/job-status`)).json(),
    'job-status',
  );

/** What a cancelled material must look like: error CANCELLED, job status cancelled, one material.failed event. */
async function expectCancelled(id: string) {
  const material = await (await tenant.request(`/api/v1/materials/${id}`)).json();
  expect(material.status).toBe('error');
  expect(material.metadata.error).toMatchObject({ code: 'CANCELLED' });
  expect(await jobStatus(id)).toMatchObject({ status: 'cancelled', error: material.metadata.error.message });
  const events = await stack.db
    .selectFrom('webhook_deliveries')
    .select(['event_type', 'payload'])
    .where('webhook_id', '=', webhookId)
    .execute();
  const mine = events.filter((e) => (e.payload as { data: { material: { _id: string } } }).data.material._id === id);
  expect(mine.map((e) => e.event_type)).toEqual(['material.failed']);
  expect(mine[0]!.payload).toMatchObject({ data: { material: { status: 'error', error: { code: 'CANCELLED' } } } });
}

/** Nothing of the material left in the queue: its job and any chunk job are gone. */
async function expectNoJobs(id: string) {
  const chunks = await stack.db.selectFrom('speech_chunks').selectAll().where('material_id', '=', id).execute();
  const ids = [id, ...chunks.map((c) => chunkJobId({ materialId: id, plan: c.plan, index: c.chunk_index }))];
  for (const jobId of ids) expect(await stack.api.queue.getJob(jobId), jobId).toBeUndefined();
}

/** The slow engine's shells and their `sleep`s still running below this process (the worker runs in it). */
async function enginesRunning() {
  return (await descendantsOf(process.pid)).filter(
    (p) => p.argv.includes(slowEngine) || (p.argv[0] === 'sleep' && p.argv[1] === '60'),
  );
}

describe('cancelling a queued job', () => {
  it('removes it, settles the material as cancelled, and lets it be reprocessed', async () => {
    const res = await sendJson(tenant, 'POST', '/api/v1/materials', { name: 'Later', content: { text: 'Not yet.' } });
    const { _id: id } = await res.json();
    expect(await stack.api.queue.getJob(id)).toBeDefined();
    expect((await jobStatus(id)).status).toBe('pending');

    const cancelled = await cancel(tenant, id);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({
      success: true,
      jobId: id,
      status: 'cancelled',
      material: { _id: id, status: 'error', metadata: { error: { code: 'CANCELLED' } } },
    });
    await expectCancelled(id);
    await expectNoJobs(id);

    // Settled now: a second cancel is a 409 with the usual body, and another organization gets 404.
    const again = await cancel(tenant, id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect((await cancel(await stack.newTenant(), id)).status).toBe(404);

    await stack.startWorker();
    expect((await sendJson(tenant, 'POST', `/api/v1/materials/${id}/reprocess`)).status).toBe(200);
    const reprocessed = await waitForStatus(tenant, id, ['active', 'error']);
    expect(reprocessed.status).toBe('active');
    expect(reprocessed.metadata.error).toBeUndefined();
    expect((await jobStatus(id)).status).toBe('completed');
    expect((await cancel(tenant, id)).status).toBe(409);
  });
});

describe('cancelling a running PDF', () => {
  let second: ServiceProcess;
  let secondUrl: string;
  beforeAll(async () => {
    await stack.startWorker();
    const port = await getPort();
    secondUrl = `http://127.0.0.1:${port}`;
    second = spawnService('api', { ...stack.env, PORT: String(port), PUBLIC_URL: secondUrl });
    await waitUntil(
      async () => (await fetch(`${secondUrl}/readyz`).catch(() => undefined))?.ok === true,
      60_000,
      'the second api',
    );
  });
  afterAll(async () => {
    second?.child.kill('SIGTERM');
    await second?.exited;
  });

  /** Waits until both of the worker's slots run an extraction: the material's progress is past reading its file. */
  async function running(id: string) {
    await waitUntil(async () => (await jobStatus(id)).status === 'running', 60_000, `${id} to run`);
    await waitUntil(
      async () => ((await (await tenant.request(`/api/v1/materials/${id}`)).json()).metadata.progress ?? 0) >= 5,
      60_000,
      `${id} to start extracting`,
    );
    const status = await jobStatus(id);
    expect(status).toMatchObject({ jobId: id, status: 'running' });
    expect(status.progress!.percentage).toBeGreaterThanOrEqual(5);
    expect(Date.parse(status.startedAt!)).toBeLessThanOrEqual(Date.now());
  }

  it('kills its child at once, frees the slot for the next material, and works from another api process', async () => {
    // Two pictures-heavy PDFs (about 7 s of work a page): one on each slot.
    const pdf = await imageHeavyPdf(4);
    const first = await upload(pdf, 'first.pdf');
    const other = await upload(pdf, 'other.pdf');
    await running(first._id);
    await running(other._id);
    // One child per slot: the two bulk slots and the interactive one, which idles here.
    const before = stack.worker!.sandbox.pids().filter((pid): pid is number => pid !== undefined);
    expect(before).toHaveLength(3);

    const started = Date.now();
    const res = await cancel(tenant, first._id);
    const answeredMs = Date.now() - started;
    expect(res.status).toBe(200);
    readAsSdk(sdk.MaterialGetJobStatusResponse, await jobStatus(first._id), 'job-status');
    // Answered once the job stopped: one of the two children is gone already (a child of the pool is replaced).
    const alive = await Promise.all(before.map((pid) => isRunning(pid)));
    expect(alive.filter((a) => !a)).toHaveLength(1);
    console.info(`cancel of a running PDF answered in ${answeredMs} ms with its child killed`);
    expect(answeredMs).toBeLessThan(10_000);
    await expectCancelled(first._id);
    await expectNoJobs(first._id);

    // The freed slot takes the next material while the other PDF still runs on the other one.
    const next = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'Next',
      content: { text: 'Right away.' },
    });
    const nextId = (await next.json())._id;
    expect((await waitForStatus(tenant, nextId, ['active', 'error'], 20_000)).status).toBe('active');
    expect((await jobStatus(other._id)).status).toBe('running');

    // The other one is cancelled through the second api process, which did not create it.
    const remote = await cancel(tenant, other._id, secondUrl);
    expect(remote.status).toBe(200);
    expect((await Promise.all(before.map((pid) => isRunning(pid)))).filter((alive) => !alive)).toHaveLength(2);
    await expectCancelled(other._id);
    await expectNoJobs(other._id);

    // Nothing the runs made is left in storage: only the originals are recorded.
    for (const id of [first._id, other._id]) {
      const objects = await stack.db
        .selectFrom('material_objects')
        .select('kind')
        .where('material_id', '=', id)
        .execute();
      expect(objects.map((o) => o.kind)).toEqual(['original']);
    }
  });
});

describe('cancelling a recording with chunks in flight on both slots', () => {
  it('removes the pending chunk jobs, kills the running ones, and removes the chunk audio', async () => {
    await stack.startWorker();
    const audio = await speechWithPauses({ times: 4, pauseSeconds: 3 });
    const { _id: id } = await upload(audio, 'lecture.wav', 'audio/wav');
    const chunkJobs = async () => {
      const chunks = await stack.db.selectFrom('speech_chunks').selectAll().where('material_id', '=', id).execute();
      const jobs = await Promise.all(
        chunks.map((c) => stack.api.queue.getJob(chunkJobId({ materialId: id, plan: c.plan, index: c.chunk_index }))),
      );
      return Promise.all(jobs.filter((j): j is Job => j !== undefined).map((j) => j.getState()));
    };
    await waitUntil(
      async () => (await chunkJobs()).filter((s) => s === 'active').length === 2,
      60_000,
      'two chunks to be transcribed at once',
    );
    const states = await chunkJobs();
    // Queued jobs carry their organization's fair-share priority: BullMQ calls them prioritized.
    expect(states.sort()).toEqual(['active', 'active', 'prioritized', 'prioritized']);
    expect(await enginesRunning()).not.toHaveLength(0);
    const status = await jobStatus(id);
    expect(status).toMatchObject({ status: 'running', progress: { currentBatch: 0, totalBatches: 4 } });

    const res = await cancel(tenant, id);
    expect(res.status).toBe(200);
    expect(await enginesRunning()).toEqual([]);
    await expectCancelled(id);
    await expectNoJobs(id);
    const chunks = await stack.db
      .selectFrom('speech_chunks')
      .select('audio_key')
      .where('material_id', '=', id)
      .execute();
    expect(chunks).toHaveLength(4);
    for (const chunk of chunks) expect(await stack.store.stat(chunk.audio_key)).toBeNull();
    const objects = await stack.db.selectFrom('material_objects').select('key').where('material_id', '=', id).execute();
    expect(objects.filter((o) => o.key.includes('speech-chunk'))).toEqual([]);

    // Both slots are free again.
    const next = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'After',
      content: { text: 'Free slots.' },
    });
    expect((await waitForStatus(tenant, (await next.json())._id, ['active', 'error'], 20_000)).status).toBe('active');
  });
});

describe('a cancel racing the job its own finish', () => {
  it('leaves one outcome: active and a 409, or cancelled and a job that changed nothing', async () => {
    const t = await stack.newTenant();
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      // Never enqueued: this test runs the job itself, at the same moment as the cancel.
      const { id } = await seedMaterial(stack.db, {
        id: newId(),
        organizationId: t.organizationId,
        folderId: null,
        name: `Race ${round}`,
        contentType: 'text',
        status: 'processing',
        source: { kind: 'text', text: 'A short note.' },
        references: [],
        extractImages: true,
      });
      const job = {
        id,
        data: { materialId: id },
        attemptsMade: 0,
        opts: { attempts: 1 },
        updateProgress: async () => {},
      };
      const deps = { db: stack.db, store: stack.store, config: stack.config, logger: stack.api.logger };
      const [processed, cancelled] = await Promise.all([
        processMaterial(job as unknown as Job<{ materialId: string }>, deps),
        cancel(t, id),
      ]);
      const material = await (await t.request(`/api/v1/materials/${id}`)).json();
      if (cancelled.status === 200) {
        expect(processed.status).toBe('skipped');
        expect(material).toMatchObject({ status: 'error', metadata: { error: { code: 'CANCELLED' } } });
        expect(material.metadata.extractedText).toBeUndefined();
      } else {
        expect(cancelled.status).toBe(409);
        expect(processed.status).toBe('active');
        expect(material.status).toBe('active');
      }
      outcomes.add(`${material.status}`);
    }
    console.info(`race outcomes seen: ${[...outcomes].join(', ')}`);
  });
});

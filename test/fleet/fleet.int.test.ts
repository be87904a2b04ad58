import { createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@quire/api';
import { createDb, createOrganization, insertApiKey, migrateToLatest, type Db } from '@quire/db';
import { createMaterialsQueue, createRedis, type MaterialsQueue } from '@quire/queue';
import {
  fleetUnavailableReason,
  imageHeavyPdf,
  OpenApiResponseChecker,
  recountSearchStatistics,
  speechWithPauses,
  startFleet,
  waitUntil,
  type Fleet,
  type ServiceProcess,
} from '@quire/testkit';

/**
 * quire spread over hosts as a fleet is: a stores host (Postgres, Redis, S3), an api host and two worker
 * hosts, each a network namespace this file makes, joined by a switch. A cut link drops every packet (a
 * partition: nothing is refused, connections just stop answering), a paused host stops all its processes.
 */
const unavailable = fleetUnavailableReason();
if (unavailable) console.warn(`fleet scenarios skipped: ${unavailable}`);

// Short locks, so a cut-off worker's jobs return to the queue in seconds rather than a minute.
const LOCK_MS = 4000;
const WORKER_SETTINGS = {
  WORKER_LOCK_MS: String(LOCK_MS),
  WORKER_CONCURRENCY: '3',
  WORKER_SHUTDOWN_MS: '1000',
  MEDIA_CHUNK_SECONDS: '5',
  EXTRACT_SPARE_CHILDREN: '0',
  EXTRACT_MAX_MEMORY_MB: '4096',
  PROCESSING_STALE_MS: '60000',
  SWEEP_INTERVAL_MS: '5000',
};
const API_SETTINGS = { REDIS_COMMAND_TIMEOUT_MS: '2000' };
// "go forward ten meters" four times with 3 s pauses: with 5 s chunks, one saying per chunk.
const SAYINGS = 4;
/** How long worker1's engine thinks before transcribing a chunk: the chunks are still running at the cut. */
const SLOW_ENGINE_SECONDS = 25;

let fleet: Fleet;
let db: Db;
let queue: MaterialsQueue;
let scratch: string;
const workers = {} as Record<'worker1' | 'worker2', ServiceProcess>;
let api: ServiceProcess;
const logFiles = {} as Record<'api' | 'worker1' | 'worker2', string>;
const responses = new OpenApiResponseChecker();

interface Client {
  organizationId: string;
  request(pathname: string, init?: RequestInit): Promise<Response>;
}

async function newClient(): Promise<Client> {
  const org = await createOrganization(db, 'Fleet organization');
  const key = generateApiKey();
  await insertApiKey(db, { organizationId: org.id, prefix: key.prefix, keyHash: key.hash });
  return {
    organizationId: org.id,
    request: (pathname, init = {}) =>
      responses.fetch(`${fleet.apiUrl}${pathname}`, {
        ...init,
        headers: { 'x-api-key': key.apiKey, ...(init.headers as Record<string, string>) },
      }),
  };
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function upload(client: Client, name: string, bytes: Buffer, type: string): Promise<string> {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([bytes], { type }), name);
  const res = await client.request('/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function statusOf(id: string): Promise<string | undefined> {
  const row = await db.selectFrom('materials').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Every JSON log line (pino) a process has written, parsed; `output()` keeps only the last 64 KiB. */
function logLines(name: keyof typeof logFiles): Record<string, unknown>[] {
  return readFileSync(logFiles[name], 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
}

/** A pocketsphinx in front of the real one that notes each chunk it is given and thinks for a while first. */
async function slowEngine(delaySeconds: number) {
  const log = path.join(scratch, 'slow-engine.log');
  const script = path.join(scratch, 'slow-engine.sh');
  await fs.writeFile(
    script,
    [
      '#!/bin/sh',
      `echo "$(basename "$2")" >> ${log}`,
      `sleep ${delaySeconds}`,
      'exec pocketsphinx_continuous "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { script, calls: async () => (await fs.readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean) };
}

describe.skipIf(unavailable !== undefined)('a fleet across hosts', () => {
  let engine: Awaited<ReturnType<typeof slowEngine>>;

  beforeAll(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-fleet-test-'));
    engine = await slowEngine(SLOW_ENGINE_SECONDS);
    fleet = await startFleet();
    db = createDb(fleet.databaseUrl, { poolSize: 4 });
    await migrateToLatest(db);
    queue = createMaterialsQueue(createRedis(fleet.envFor('worker1').REDIS_URL!, 'producer'), {
      prefix: fleet.envFor('worker1').QUEUE_PREFIX!,
      attempts: 3,
    });
    api = await fleet.startApi(API_SETTINGS);
    // worker1 transcribes slowly, so that a cut falls in the middle of a chunk, and has a slot for each of
    // the lecture's chunks and one for the PDF.
    [workers.worker1, workers.worker2] = await Promise.all([
      fleet.startWorker('worker1', { ...WORKER_SETTINGS, WORKER_CONCURRENCY: '5', POCKETSPHINX_PATH: engine.script }),
      fleet.startWorker('worker2', WORKER_SETTINGS),
    ]);
    for (const [name, p] of Object.entries({ api, ...workers }) as [keyof typeof logFiles, ServiceProcess][]) {
      logFiles[name] = path.join(scratch, `${name}.log`);
      const file = createWriteStream(logFiles[name]);
      p.child.stdout!.on('data', (chunk: Buffer) => file.write(chunk));
      p.child.stderr!.on('data', (chunk: Buffer) => file.write(chunk));
    }
  }, 240_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      for (const [name, p] of Object.entries({ api, ...workers })) {
        console.error(
          `--- ${name} (exit ${p?.child.exitCode ?? p?.child.signalCode ?? 'none'}):\n${p?.output().slice(-6000)}`,
        );
      }
    }
    await fleet?.heal();
  });

  afterAll(async () => {
    await queue?.close().catch(() => {});
    await db?.destroy().catch(() => {});
    await fleet?.teardown();
    if (scratch) {
      // The processes' logs stay for whoever reads a failed run.
      const artifacts = path.join(import.meta.dirname, '../../test-artifacts/fleet');
      await fs.mkdir(artifacts, { recursive: true });
      for (const file of Object.values(logFiles)) await fs.copyFile(file, path.join(artifacts, path.basename(file)));
      await fs.rm(scratch, { recursive: true, force: true });
    }
  });

  it('a worker host cut off mid-PDF and mid-lecture: the other host takes its jobs once their locks expire, and its late results change nothing', async () => {
    const client = await newClient();
    const lecture = await speechWithPauses({ times: SAYINGS, pauseSeconds: 3, format: 'mp3' });
    const pdf = await imageHeavyPdf(1, 3000);
    // Only worker1 takes jobs until the cut.
    await fleet.pause('worker2');

    const lectureId = await upload(client, 'lecture.mp3', lecture, 'audio/mpeg');
    await waitUntil(
      async () => (await engine.calls()).length === SAYINGS,
      60_000,
      'worker1 to start transcribing every chunk',
    );
    const pdfId = await upload(client, 'heavy.pdf', pdf, 'application/pdf');
    await waitUntil(
      async () => (await (await queue.getJob(pdfId))?.getState()) === 'active',
      30_000,
      'worker1 to take the PDF',
    );

    await fleet.cut('worker1');
    const chunksOnWorker1 = await engine.calls();
    await fleet.resume('worker2');

    await waitUntil(
      async () => (await statusOf(pdfId)) === 'active' && (await statusOf(lectureId)) === 'active',
      150_000,
      'worker2 to finish both materials',
    );
    // What a client sees of a material, without the signed URLs that differ on every read.
    const seen = async (id: string) => {
      const m = await (await client.request(`/api/v1/materials/${id}`)).json();
      return { status: m.status, updatedAt: m.updatedAt, metadata: m.metadata, contentType: m.contentType };
    };
    const snapshot = async () => ({
      pdf: await seen(pdfId),
      lecture: await seen(lectureId),
      objects: await db
        .selectFrom('material_objects')
        .select(['material_id', 'key', 'kind'])
        .where('material_id', 'in', [pdfId, lectureId])
        .orderBy('key')
        .execute(),
      passages: await db
        .selectFrom('search_passages')
        .select(['material_id', 'chunk_index', 'text'])
        .where('material_id', 'in', [pdfId, lectureId])
        .orderBy('material_id')
        .orderBy('chunk_index')
        .execute(),
      speechChunks: await db
        .selectFrom('speech_chunks')
        .select(['chunk_index', 'segments', 'error', 'finished_at'])
        .where('material_id', '=', lectureId)
        .orderBy('chunk_index')
        .execute(),
    });
    const before = await snapshot();

    const logsBefore = logLines('worker1').length;
    await fleet.restore('worker1');
    // worker1 comes back with the end of each job it held: a PDF publish that finds the material no longer
    // processing (or an attempt that failed during the cut), chunk transcripts that find their chunks already
    // finished. BullMQ then refuses to record any of them, since their locks are gone.
    const refused = () =>
      logLines('worker1')
        .slice(logsBefore)
        .map(
          (l) => /^Missing lock for job (\S+)\./.exec((l.err as { message?: string } | undefined)?.message ?? '')?.[1],
        )
        .filter((jobId): jobId is string => jobId !== undefined);
    await waitUntil(
      () =>
        refused().includes(pdfId) &&
        new Set(refused().filter((jobId) => jobId.startsWith(`${lectureId}-speech-`))).size === SAYINGS,
      120_000,
      "worker1's late results of the PDF and of every chunk",
    );
    const lateLines = logLines('worker1').slice(logsBefore);
    const latePublish = lateLines.find((l) => l.materialId === pdfId && l.msg === 'processing finished');
    if (latePublish) expect(latePublish).toMatchObject({ status: 'skipped' });
    await new Promise((r) => setTimeout(r, 2000));

    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.pdf.status).toBe('active');
    expect(after.pdf.metadata.images).toHaveLength(1);
    expect(after.lecture.metadata.transcription).toMatchObject({ chunkCount: SAYINGS, complete: true });
    // Every saying once: no chunk lost, none joined twice.
    expect(after.lecture.metadata.extractedText.match(/forward/g)).toHaveLength(SAYINGS);
    expect(after.speechChunks).toHaveLength(SAYINGS);
    expect(after.speechChunks.every((c) => c.segments && c.finished_at && !c.error)).toBe(true);
    expect(chunksOnWorker1).toHaveLength(SAYINGS);

    // What worker1 wrote to storage for nothing was removed; worker2's objects are all there.
    const stored = await fleetObjects(client.organizationId, pdfId);
    const recorded = after.objects.filter((o) => o.material_id === pdfId && o.kind === 'derived').map((o) => o.key);
    expect(stored.sort()).toEqual(recorded.sort());
  }, 400_000);

  it('the api host loses Redis for 30 s: creates answer 503 (nothing left behind), waits end with the right answer, and all works after', async () => {
    const client = await newClient();
    // A wait begun before the cut, for a job the workers take only once Redis is already out of the api's reach.
    await fleet.pause('worker1');
    await fleet.pause('worker2');
    const waiting = client.request(
      '/api/v1/materials/upload-and-process',
      json({
        name: 'before the cut',
        content: { text: 'written before the partition' },
        timeoutMs: 60_000,
        pollIntervalMs: 500,
      }),
    );
    await waitUntil(
      async () =>
        (await db.selectFrom('materials').select('id').where('organization_id', '=', client.organizationId).execute())
          .length === 1,
      30_000,
      'the first material to be created',
    );
    await new Promise((r) => setTimeout(r, 500));
    await fleet.cut('api-redis');
    const cutAt = Date.now();
    await fleet.resume('worker1');
    await fleet.resume('worker2');

    const first = await waiting;
    expect(first.status).toBe(201);
    expect((await first.json()).status).toBe('active');

    // Creates during the partition: 503 with Retry-After after the command timeout, the material withdrawn.
    const refused: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await client.request(
        '/api/v1/materials',
        json({ name: `during the cut ${i}`, content: { text: 'written during the partition' } }),
      );
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect(await res.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
      refused.push(Date.now() - started);
    }
    expect(Math.max(...refused)).toBeLessThan(10_000);
    // Reads need no Redis and do not wait for it.
    const listStarted = Date.now();
    const listed = await client.request('/api/v1/materials?limit=50');
    expect(listed.status).toBe(200);
    expect(Date.now() - listStarted).toBeLessThan(10_000);
    const ready = await fetch(`${fleet.apiUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.redis).toMatch(/unavailable/);

    await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - cutAt))));
    await fleet.restore('api-redis');
    await waitUntil(
      async () => (await fetch(`${fleet.apiUrl}/readyz`)).status === 200,
      120_000,
      'readiness after the partition',
    );

    const after = await client.request(
      '/api/v1/materials/upload-and-process',
      json({ name: 'after the cut', content: { text: 'written after the partition' }, timeoutMs: 60_000 }),
    );
    expect(after.status).toBe(201);
    expect((await after.json()).status).toBe('active');
    // Nothing lost, nothing half-made: the two answered 201 are active, the three refused are gone.
    await waitUntil(
      async () =>
        (
          await db
            .selectFrom('materials')
            .select('status')
            .where('organization_id', '=', client.organizationId)
            .where('status', '=', 'processing')
            .execute()
        ).length === 0,
      60_000,
      'no material left processing',
    );
    const rows = await db
      .selectFrom('materials')
      .select(['name', 'status'])
      .where('organization_id', '=', client.organizationId)
      .orderBy('created_at')
      .execute();
    expect(rows.filter((r) => r.status !== 'deleted')).toEqual([
      { name: 'before the cut', status: 'active' },
      { name: 'after the cut', status: 'active' },
    ]);
    expect(api.output()).toMatch(/enqueue failed; withdrawing the material/);
  }, 240_000);

  it('Postgres restarted under a steady load of uploads: every upload ends active or with an error the client can retry, none stuck', async () => {
    const client = await newClient();
    const outcomes: { status: number; id?: string; retryAfter?: string | null }[] = [];
    let stopAt = Date.now() + 60_000;
    // About ten creates a second, one after the other, as a steady client sends them.
    const load = (async () => {
      for (let i = 0; i < 600 && Date.now() < stopAt; i++) {
        const res = await client.request(
          '/api/v1/materials',
          json({ name: `steady ${i}`, content: { text: `steady upload number ${i}` } }),
        );
        const body = (await res.json()) as { _id?: string };
        outcomes.push({ status: res.status, id: body._id, retryAfter: res.headers.get('retry-after') });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await new Promise((r) => setTimeout(r, 3000));
    await fleet.stopPostgres();
    await new Promise((r) => setTimeout(r, 2000));
    await fleet.startPostgres();
    stopAt = Date.now() + 5000;
    await load;

    expect(outcomes.length).toBeGreaterThan(20);
    // Only two answers: created, or 503 with Retry-After (the client tries again).
    for (const o of outcomes) {
      expect([201, 503], JSON.stringify(o)).toContain(o.status);
      if (o.status === 503) expect(o.retryAfter).toBeTruthy();
    }
    expect(outcomes.some((o) => o.status === 503)).toBe(true);
    const created = outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    // No process of the fleet went down with Postgres.
    for (const p of [api, workers.worker1, workers.worker2])
      expect(p.child.exitCode, p.output().slice(-3000)).toBeNull();
    await waitUntil(
      async () =>
        (
          await db
            .selectFrom('materials')
            .select('id')
            .where('organization_id', '=', client.organizationId)
            .where('status', '=', 'processing')
            .execute()
        ).length === 0,
      120_000,
      'every upload to finish processing',
    );
    const rows = await db
      .selectFrom('materials')
      .select(['id', 'status'])
      .where('organization_id', '=', client.organizationId)
      .execute();
    expect(rows.filter((r) => r.status !== 'active')).toEqual([]);
    expect(rows.map((r) => r.id).sort()).toEqual(created.sort());
  }, 240_000);

  it('both worker hosts publish 20 books into one organization at once: no deadlock, all active, search statistics exact', async () => {
    const client = await newClient();
    const deadlocks = async () =>
      Number(
        (
          await sql<{
            deadlocks: string;
          }>`select deadlocks from pg_stat_database where datname = current_database()`.execute(db)
        ).rows[0]!.deadlocks,
      );
    await sql`select pg_stat_clear_snapshot()`.execute(db);
    const deadlocksBefore = await deadlocks();
    await fleet.pause('worker1');
    await fleet.pause('worker2');
    const ids: string[] = [];
    for (let book = 0; book < 20; book++) {
      const res = await client.request(
        '/api/v1/materials',
        json({ name: `book ${book}`, content: { text: bookText(book) } }),
      );
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { _id: string })._id);
    }
    const logsBefore = { worker1: logLines('worker1').length, worker2: logLines('worker2').length };
    await fleet.resume('worker1');
    await fleet.resume('worker2');
    await waitUntil(
      async () =>
        (await db.selectFrom('materials').select('id').where('id', 'in', ids).where('status', '=', 'active').execute())
          .length === ids.length,
      150_000,
      'every book to be published',
    );

    const finished = (['worker1', 'worker2'] as const).flatMap((w) =>
      logLines(w)
        .slice(logsBefore[w])
        .filter((l) => ids.includes(l.materialId as string))
        .map((l) => ({ ...l, worker: w })),
    );
    // Both hosts published, each book once, at its first attempt.
    const published = finished.filter((l) => l.msg === 'processing finished' && l.status === 'active');
    expect(published.map((l) => l.materialId).sort()).toEqual([...ids].sort());
    expect(new Set(published.map((l) => l.worker)).size).toBe(2);
    expect(finished.filter((l) => l.msg === 'job attempt failed')).toEqual([]);
    // Backends report their counters within a second or so of their transaction's end.
    await new Promise((r) => setTimeout(r, 2000));
    await sql`select pg_stat_clear_snapshot()`.execute(db);
    expect(await deadlocks()).toBe(deadlocksBefore);

    const recount = await recountSearchStatistics(db, client.organizationId);
    expect(recount.wrongWords).toEqual([]);
    expect(recount.kept).toEqual(recount.recounted);
    expect(recount.exact).toBe(true);
    const pending = await db.selectFrom('search_pending_vocabulary').select('xact').execute();
    expect(pending).toEqual([]);
  }, 240_000);
});

/** A small book: 60 paragraphs of sentences over a few hundred words, some shared by every book, some its own. */
function bookText(book: number): string {
  const common = [
    'river',
    'mountain',
    'history',
    'science',
    'language',
    'window',
    'garden',
    'letter',
    'winter',
    'market',
  ];
  const own = Array.from({ length: 200 }, (_, i) => `word${book}x${i}`);
  const paragraphs: string[] = [];
  for (let p = 0; p < 60; p++) {
    const words: string[] = [];
    for (let w = 0; w < 90; w++)
      words.push(w % 3 === 0 ? own[(p * 7 + w) % own.length]! : common[(p + w * book) % common.length]!);
    paragraphs.push(`${words.join(' ')}.`);
  }
  return paragraphs.join('\n\n');
}

/** The derived objects of a material as the S3 server holds them (keys without the fleet's prefix). */
function fleetObjects(organizationId: string, materialId: string): Promise<string[]> {
  return listS3Keys(fleet.envFor('worker1'), `fleet/${organizationId}/${materialId}/derived/`);
}

async function listS3Keys(env: Record<string, string>, prefix: string): Promise<string[]> {
  const { Client } = await import('minio');
  const client = new Client({
    endPoint: env.S3_ENDPOINT!,
    port: Number(env.S3_PORT),
    useSSL: false,
    accessKey: env.S3_ACCESS_KEY!,
    secretKey: env.S3_SECRET_KEY!,
  });
  const keys: string[] = [];
  for await (const item of client.listObjectsV2(env.S3_BUCKET!, prefix, true)) {
    if ((item as { name?: string }).name) keys.push((item as { name: string }).name.slice('fleet/'.length));
  }
  return keys;
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  speechWithPauses,
  startTestStack,
  startWorkerProcess,
  uploadAndProcess,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

// "go forward ten meters" (2.79 s, words from 0.48 s to 2.12 s) four times with 3 s of silence between: with
// 5 s chunks the cuts fall in the three pauses, one saying per chunk.
const SAYINGS = 4;
const PERIOD_MS = 2786 + 3000;
const WORDS_FROM_MS = 480;
const CHUNKED = { MEDIA_CHUNK_SECONDS: '5' };

let scratch: string;
beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-long-recordings-'));
});
afterAll(() => fs.rm(scratch, { recursive: true, force: true }));

/**
 * A pocketsphinx in front of the real one: logs each chunk it is given with the process that called it (a sandbox
 * child), waits `delaySeconds`, and fails for chunk `failIndex`, as a broken engine or a bad stretch of audio would.
 */
async function engineWrapper(name: string, options: { failIndex?: number; delaySeconds?: number }) {
  const log = path.join(scratch, `${name}.log`);
  const script = path.join(scratch, `${name}.sh`);
  await fs.writeFile(
    script,
    [
      '#!/bin/sh',
      `chunk=$(basename "$2")`,
      `echo "$PPID $chunk" >> ${log}`,
      options.delaySeconds ? `sleep ${options.delaySeconds}` : '',
      options.failIndex !== undefined
        ? `[ "$chunk" = "chunk-${options.failIndex}.wav" ] && { echo "ERROR: cannot read this stretch" >&2; exit 3; }`
        : '',
      'exec pocketsphinx_continuous "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  /** Each call: the chunk's file name and the pid of the process that asked for it. */
  const calls = async () =>
    (await fs.readFile(log, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ caller: line.split(' ')[0]!, chunk: line.split(' ')[1]! }));
  return { script, calls, chunks: async () => (await calls()).map((call) => call.chunk) };
}

const WORDS_UNTIL_MS = 2120;

/**
 * The transcript's passages as search finds them (a transcript's lines are joined into passages that span
 * their times): the one passage of these short sayings must start at the first saying heard and end at the
 * last, in the recording's time, not in its chunk's.
 */
async function expectTranscriptSpan(tenant: Tenant, id: string, first: number, last: number) {
  const res = await tenant.request('/api/v1/materials/search', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'forward' }),
  });
  expect(res.status).toBe(200);
  const hits = ((await res.json()).results as { startMs: number; endMs: number; material: { id: string } }[]).filter(
    (h) => h.material.id === id,
  );
  expect(hits).toHaveLength(1);
  expect(Math.abs(hits[0]!.startMs - (first * PERIOD_MS + WORDS_FROM_MS))).toBeLessThanOrEqual(200);
  expect(Math.abs(hits[0]!.endMs - (last * PERIOD_MS + WORDS_UNTIL_MS))).toBeLessThanOrEqual(200);
}

describe('a recording longer than MEDIA_CHUNK_SECONDS', () => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ storage: 's3', config: CHUNKED });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('is cut at its silences, transcribed chunk by chunk, and joined with times relative to the whole', async () => {
    const audio = await speechWithPauses({ times: SAYINGS, pauseSeconds: 3, format: 'mp3' });
    const res = await uploadAndProcess(tenant, audio, 'lecture.mp3', { type: 'audio/mpeg' });
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.status).toBe('active');
    expect(material.metadata.transcription).toMatchObject({
      engine: 'pocketsphinx',
      chunkCount: SAYINGS,
      complete: true,
    });
    expect(material.metadata.extractedText.match(/forward/g)).toHaveLength(SAYINGS);
    await expectTranscriptSpan(tenant, material._id, 0, SAYINGS - 1);

    // Each cut lies inside a pause, and the chunks' audio is gone from storage once joined.
    const chunks = await stack.db
      .selectFrom('speech_chunks')
      .selectAll()
      .where('material_id', '=', material._id)
      .orderBy('chunk_index')
      .execute();
    expect(chunks).toHaveLength(SAYINGS);
    for (const chunk of chunks.slice(1)) {
      const intoPeriod = Number(chunk.start_ms) % PERIOD_MS;
      expect(intoPeriod, `cut at ${chunk.start_ms} ms`).toBeGreaterThan(2200);
      expect(intoPeriod).toBeLessThan(PERIOD_MS);
    }
    for (const chunk of chunks) expect(await stack.store.stat(chunk.audio_key)).toBeNull();
    const objects = await stack.db
      .selectFrom('material_objects')
      .select('key')
      .where('material_id', '=', material._id)
      .execute();
    expect(objects.filter((o) => o.key.includes('speech-chunk'))).toEqual([]);
  });
});

describe('a chunk that keeps failing', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let engine: Awaited<ReturnType<typeof engineWrapper>>;
  beforeAll(async () => {
    engine = await engineWrapper('fails-chunk-1', { failIndex: 1 });
    stack = await startTestStack({ config: { ...CHUNKED, JOB_ATTEMPTS: '2', POCKETSPHINX_PATH: engine.script } });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  it('is retried, then the material ends active with the rest of the transcript and says which stretch is missing', async () => {
    const audio = await speechWithPauses({ times: SAYINGS, pauseSeconds: 3 });
    const res = await uploadAndProcess(tenant, audio, 'lecture.wav', { type: 'audio/wav' });
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.status).toBe('active');
    expect(material.metadata.extractedText.match(/forward/g)).toHaveLength(SAYINGS - 1);
    await expectTranscriptSpan(tenant, material._id, 0, SAYINGS - 1);

    const { transcription } = material.metadata;
    expect(transcription).toMatchObject({ chunkCount: SAYINGS, complete: false });
    expect(transcription.missing).toHaveLength(1);
    const [missing] = transcription.missing;
    expect(missing.reason).toMatch(/pocketsphinx exited with code 3: .*cannot read this stretch/);
    // The stretch of the second saying, from the pause before it to the pause after it.
    expect(missing.startMs).toBeGreaterThan(2200);
    expect(missing.startMs).toBeLessThan(PERIOD_MS);
    expect(missing.endMs).toBeGreaterThan(PERIOD_MS + 2200);
    expect(missing.endMs).toBeLessThan(2 * PERIOD_MS);

    const calls = await engine.chunks();
    expect(calls.filter((c) => c === 'chunk-1.wav')).toHaveLength(2);
    expect(calls.filter((c) => c !== 'chunk-1.wav').sort()).toEqual(['chunk-0.wav', 'chunk-2.wav', 'chunk-3.wav']);
  });
});

describe('a worker killed in the middle of a recording', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let engine: Awaited<ReturnType<typeof engineWrapper>>;
  const workers: ServiceProcess[] = [];
  beforeAll(async () => {
    engine = await engineWrapper('slow', { delaySeconds: 2 });
    stack = await startTestStack({
      worker: false,
      config: {
        ...CHUNKED,
        POCKETSPHINX_PATH: engine.script,
        WORKER_CONCURRENCY: '1',
        WORKER_LOCK_MS: '3000',
        WORKER_SHUTDOWN_MS: '1000',
      },
    });
    tenant = await stack.newTenant();
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await stack?.close();
  });

  async function startWorker(): Promise<ServiceProcess> {
    const worker = await startWorkerProcess(stack.env);
    workers.push(worker);
    return worker;
  }

  const finishedChunks = (id: string) =>
    stack.db
      .selectFrom('speech_chunks')
      .select(['chunk_index', 'finished_at'])
      .where('material_id', '=', id)
      .where('finished_at', 'is not', null)
      .orderBy('chunk_index')
      .execute();

  it('costs only the chunk it was on: another worker goes on from the last finished chunk', async () => {
    const first = await startWorker();
    const form = new FormData();
    form.append('name', 'lecture');
    form.append('file', new Blob([await speechWithPauses({ times: SAYINGS, pauseSeconds: 3 })]), 'lecture.wav');
    const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const id = (await res.json())._id as string;

    await waitUntil(async () => (await finishedChunks(id)).length >= 1, 60_000, 'a first chunk to be transcribed');
    // Progress counts finished chunks: cutting is the first 10 %, each of the four chunks a quarter of the next 85.
    await waitUntil(
      async () => (await (await tenant.request(`/api/v1/materials/${id}`)).json()).metadata.progress >= 31,
      10_000,
      'progress to count the finished chunk',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const before = await finishedChunks(id);
    expect(before.length).toBeLessThan(SAYINGS);
    const callsBefore = await engine.calls();

    await startWorker();
    await waitUntil(
      async () => (await (await tenant.request(`/api/v1/materials/${id}`)).json()).status !== 'processing',
      120_000,
      'the second worker to finish the recording',
    );
    const material = await (await tenant.request(`/api/v1/materials/${id}`)).json();
    expect(material.status).toBe('active');
    expect(material.metadata.transcription).toMatchObject({ chunkCount: SAYINGS, complete: true });
    expect(material.metadata.extractedText.match(/forward/g)).toHaveLength(SAYINGS);
    await expectTranscriptSpan(tenant, id, 0, SAYINGS - 1);

    // The chunks finished before the kill were kept, not transcribed again.
    const after = await finishedChunks(id);
    for (const chunk of before)
      expect(after.find((c) => c.chunk_index === chunk.chunk_index)?.finished_at).toEqual(chunk.finished_at);
    // (The chunk the first worker's sandbox was on when it was killed may be logged a moment after the kill, by
    // the engine it had just started: the second worker's own calls are those of other callers.)
    const killedCallers = new Set(callsBefore.map((call) => call.caller));
    const callsAfter = (await engine.calls())
      .slice(callsBefore.length)
      .filter((call) => !killedCallers.has(call.caller))
      .map((call) => call.chunk);
    for (const chunk of before) expect(callsAfter).not.toContain(`chunk-${chunk.chunk_index}.wav`);
    expect(callsAfter.sort()).toEqual(
      Array.from({ length: SAYINGS }, (_, i) => `chunk-${i}.wav`).filter(
        (chunk) => !before.some((done) => `chunk-${done.chunk_index}.wav` === chunk),
      ),
    );
  });
});

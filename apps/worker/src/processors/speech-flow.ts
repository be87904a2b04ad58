import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WaitingChildrenError, type Job } from 'bullmq';
import { listSpeechChunks, recordChunkPlan, type PlannedChunk, type SpeechChunk } from '@quire/db';
import { EXTRACTOR_VERSIONS, type ExtractError } from '@quire/extract';
import {
  CHUNK_SILENCE,
  createMediaTools,
  joinChunkTranscripts,
  pcmRange,
  planChunks,
  SPEECH_SAMPLE_RATE,
  wavHeader,
  type TranscriptSegment,
} from '@quire/extract/speech-tools';
import { dropRunObjects, keepRunObject } from '@quire/lifecycle';
import { storageKeys, type Material } from '@quire/material';
import { addChunkJobs, type JobMap, type MaterialsQueue } from '@quire/queue';
import type { Logger } from 'pino';
import { mediaBudgetMs } from './budget.ts';
import { anySignal } from './cancellation.ts';
import type { ProcessDeps } from './process-deps.ts';

const PROBE_TIMEOUT_MS = 30_000;
/** Progress shares of a chunked recording: decoding and cutting, then the chunks, then the final write. */
export const CUT_UNTIL = 10;
export const CHUNKS_UNTIL = 95;

export type ChunkedSpeech =
  /** Short, silent or unreadable: the sandboxed extraction transcribes it whole (or says what is wrong). */
  | { kind: 'whole'; durationSeconds?: number }
  | { kind: 'joined'; durationSeconds?: number; segments: TranscriptSegment[]; about: Record<string, unknown> }
  | { kind: 'failed'; code: ExtractError['code']; message: string };

interface FlowInput {
  job: Job<JobMap['process-material']>;
  token: string;
  queue: MaterialsQueue;
  material: Material;
  inputPath: string;
  workDir: string;
}

/**
 * A recording longer than MEDIA_CHUNK_SECONDS is decoded once, cut at silences, and its chunks put in the
 * object store and queued as child jobs that any worker slot takes; this job then waits for them
 * (WaitingChildrenError) and, run again once they are done, joins their transcripts. Chunk transcripts live in
 * Postgres, so a re-run of any step reuses every finished chunk.
 */
export async function transcribeInChunks(
  flow: FlowInput,
  deps: ProcessDeps,
  log: Logger,
  reportProgress: (percent: number) => void,
): Promise<ChunkedSpeech> {
  const { job, material, inputPath } = flow;
  const { config } = deps;
  if (config.extraction.speechEngine === 'none') return { kind: 'whole' };
  const tools = createMediaTools(config.extraction);
  const facts = await tools.probeSpeech(inputPath, PROBE_TIMEOUT_MS);
  const durationSeconds = facts?.durationSeconds;
  const chunkMs = config.extraction.mediaChunkSeconds * 1000;
  if (facts?.audioIndex === undefined || !durationSeconds || durationSeconds * 1000 <= chunkMs * 1.25)
    return { kind: 'whole', durationSeconds };

  let plan = job.data.speech?.plan;
  if (!plan) {
    const cut = await cutIntoChunks(flow, deps, facts.audioIndex, durationSeconds, reportProgress);
    if (cut.kind === 'failed') return cut;
    plan = cut.plan;
    log.info({ plan, chunks: cut.chunks, durationSeconds }, 'recording cut into chunks');
  }
  if (await job.moveToWaitingChildren(flow.token)) throw new WaitingChildrenError();

  const rows = await listSpeechChunks(deps.db, material.id, plan);
  const joined = joinChunkTranscripts(rows.map(chunkTranscript));
  // Every chunk has its words (or has been given up on): the audio is no longer needed by anyone.
  const audioKeys = rows.map((r) => r.audio_key);
  await dropRunObjects(deps, material, audioKeys, (err) => log.warn({ err }, 'chunk audio could not be removed'));
  if (joined.missing.length > 0) log.warn({ missing: joined.missing }, 'transcript joined with stretches missing');
  return {
    kind: 'joined',
    durationSeconds,
    segments: joined.segments,
    about: {
      engine: config.extraction.speechEngine,
      segmentCount: joined.segments.length,
      chunkCount: rows.length,
      chunkSeconds: config.extraction.mediaChunkSeconds,
      ...(joined.missing.length > 0 ? { complete: false, missing: joined.missing } : { complete: true }),
    },
  };
}

function chunkTranscript(row: SpeechChunk) {
  return {
    startMs: Number(row.start_ms),
    endMs: Number(row.end_ms),
    ...(row.segments ? { segments: row.segments } : {}),
    error: row.error ?? 'the chunk was not transcribed',
  };
}

async function cutIntoChunks(
  { job, queue, material, inputPath, workDir }: FlowInput,
  deps: ProcessDeps,
  audioIndex: number,
  durationSeconds: number,
  reportProgress: (percent: number) => void,
): Promise<{ kind: 'cut'; plan: string; chunks: number } | Extract<ChunkedSpeech, { kind: 'failed' }>> {
  const { db, config } = deps;
  const chunkSeconds = config.extraction.mediaChunkSeconds;
  // Same bytes, chunk length and engine, same plan: a re-run (lost queue, crash while cutting, reprocessing
  // with nothing changed) finds its finished chunks; a new engine, model or extractor version starts over.
  const { speechEngine, pocketsphinxPath, pocketsphinxModelDir } = config.extraction;
  const engine = JSON.stringify([EXTRACTOR_VERSIONS.audio, speechEngine, pocketsphinxPath, pocketsphinxModelDir]);
  const plan = `${(await sha256(inputPath, engine)).slice(0, 24)}-${chunkSeconds}`;
  const pcmPath = path.join(workDir, 'speech.pcm');
  const tools = createMediaTools(config.extraction);
  const stop = anySignal(deps.shutdown, deps.cancel);
  let silences;
  try {
    silences = await tools.toSpeechPcm(inputPath, audioIndex, pcmPath, {
      ...CHUNK_SILENCE,
      timeoutMs: mediaBudgetMs(durationSeconds, config),
      ...(stop ? { signal: stop } : {}),
      onSeconds: (done) => reportProgress(5 + Math.min(1, done / durationSeconds) * (CUT_UNTIL - 5)),
    });
  } catch (err) {
    stop?.throwIfAborted();
    const { code = 'CORRUPT', message = String(err) } = err as Partial<ExtractError>;
    return { kind: 'failed', code, message };
  }
  const { size } = await fs.stat(pcmPath);
  const spans = planChunks(Math.floor((size / 2 / SPEECH_SAMPLE_RATE) * 1000), silences, chunkSeconds * 1000);

  const done = new Set(
    (await listSpeechChunks(db, material.id, plan)).filter((r) => r.segments).map((r) => r.chunk_index),
  );
  const runKey = storageKeys.derivedRun(material.organizationId, material.id);
  const planned: PlannedChunk[] = [];
  for (const [index, span] of spans.entries()) {
    // Each piece of audio is recorded as soon as it is stored: a cancelled run leaves none unrecorded.
    stop?.throwIfAborted();
    const audioKey = storageKeys.derived(runKey, `speech-chunk-${index}.wav`);
    planned.push({ index, startMs: span.startMs, endMs: span.endMs, audioKey });
    if (done.has(index)) continue;
    const { start, end } = pcmRange(span, SPEECH_SAMPLE_RATE);
    const samples = await readRange(pcmPath, start, end);
    const wav = Buffer.concat([wavHeader(samples.length, SPEECH_SAMPLE_RATE), samples]);
    await keepRunObject(deps, material, audioKey, wav, 'audio/wav');
  }
  stop?.throwIfAborted();
  await recordChunkPlan(db, material.id, plan, planned);
  await addChunkJobs(
    queue,
    job,
    planned.map((c) => ({ materialId: material.id, plan, index: c.index })),
    { organizationId: material.organizationId },
  );
  await job.updateData({ ...job.data, speech: { plan, chunks: planned.length } });
  reportProgress(CUT_UNTIL);
  return { kind: 'cut', plan, chunks: planned.length };
}

async function readRange(file: string, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  for await (const part of createReadStream(file, { start, end: end - 1 })) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function sha256(file: string, salt: string): Promise<string> {
  const hash = createHash('sha256').update(salt);
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

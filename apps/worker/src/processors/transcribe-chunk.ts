import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Job } from 'bullmq';
import { countFinishedSpeechChunks, findMaterialForProcessing, findSpeechChunk, finishSpeechChunk } from '@quire/db';
import { createSpeechEngine } from '@quire/extract/speech-tools';
import { recordProgress } from '@quire/lifecycle';
import { findMaterialJob, type ChunkResult, type JobMap, type MaterialsQueue } from '@quire/queue';
import { makeJobDir } from '../sandbox/job-dirs.ts';
import { mediaBudgetMs } from './budget.ts';
import { anySignal, isCancelled } from './cancellation.ts';
import type { ProcessDeps } from './process-deps.ts';
import { CHUNKS_UNTIL, CUT_UNTIL } from './speech-flow.ts';

/**
 * Transcribes one chunk of a long recording (a child of its material's job) and keeps its words in Postgres.
 * A chunk already finished is skipped, so nothing is transcribed twice; on its last attempt a failing chunk is
 * recorded as missing instead of failing, so the material ends with the rest of its transcript.
 */
export async function transcribeChunk(
  job: Job<JobMap['transcribe-chunk']>,
  deps: ProcessDeps & { queue: MaterialsQueue },
): Promise<ChunkResult> {
  const { db, store, config } = deps;
  const { materialId, plan, index } = job.data;
  const chunk = await findSpeechChunk(db, materialId, plan, index);
  const material = await findMaterialForProcessing(db, materialId);
  if (!chunk || chunk.finished_at || material?.status !== 'processing') return { status: 'skipped' };

  const log = deps.logger.child({ jobId: job.id, materialId, chunk: index, attempt: job.attemptsMade + 1 });
  const seconds = (Number(chunk.end_ms) - Number(chunk.start_ms)) / 1000;
  const budgetMs = mediaBudgetMs(seconds, config);
  const timeout = AbortSignal.timeout(budgetMs);
  const signal = anySignal(timeout, deps.shutdown, deps.cancel)!;
  const workDir = await makeJobDir();
  const started = Date.now();
  try {
    const wavPath = path.join(workDir, `chunk-${index}.wav`);
    await pipeline(await store.get(chunk.audio_key), createWriteStream(wavPath));
    const segments = await createSpeechEngine(config.extraction).transcribe(wavPath, { signal });
    await finishSpeechChunk(db, { materialId, plan, index }, { segments });
    log.info({ seconds, transcribeMs: Date.now() - started, segments: segments.length }, 'chunk transcribed');
    await publishProgress(deps, materialId, plan);
    return { status: 'transcribed' };
  } catch (err) {
    if (isCancelled(deps.cancel)) {
      log.info('chunk cancelled');
      return { status: 'cancelled' };
    }
    if (deps.shutdown?.aborted) throw err;
    const reason = timeout.aborted
      ? `transcribing took longer than its budget of ${budgetMs} ms`
      : `transcribing failed: ${(err as Error)?.message ?? err}`;
    if (job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw new Error(reason, { cause: err });
    log.warn({ err }, 'chunk given up on: %s', reason);
    await finishSpeechChunk(db, { materialId, plan, index }, { error: reason });
    await publishProgress(deps, materialId, plan);
    return { status: 'failed' };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

/** Finished chunks out of all, on the row and as the material job's progress (what `/events` streams relay). */
async function publishProgress(deps: ProcessDeps & { queue: MaterialsQueue }, materialId: string, plan: string) {
  try {
    const { finished, total } = await countFinishedSpeechChunks(deps.db, materialId, plan);
    const percent = Math.round(CUT_UNTIL + ((CHUNKS_UNTIL - CUT_UNTIL) * finished) / Math.max(1, total));
    await recordProgress(deps, materialId, percent);
    await (await findMaterialJob(deps.queue, materialId))?.updateProgress(percent);
  } catch (err) {
    deps.logger.debug({ err, materialId }, 'could not publish chunk progress');
  }
}

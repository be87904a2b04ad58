import fs from 'node:fs/promises';
import path from 'node:path';
import { WaitingChildrenError, type Job } from 'bullmq';
import { findMaterialForProcessing } from '@quire/db';
import {
  charsetOf,
  normalizeText,
  paragraphsOf,
  type ContentType,
  type ExtractError,
  type ExtractResult,
} from '@quire/extract';
import { recordFailure, recordProgress } from '@quire/lifecycle';
import { originalOf, type Material, type MaterialError, type RunMeasures } from '@quire/material';
import type { JobMap, ProcessResult } from '@quire/queue';
import type { Logger } from 'pino';
import { makeJobDir } from '../sandbox/job-dirs.ts';
import { oneOffSandbox } from '../sandbox/run-sandboxed.ts';
import { sandboxSettingsOf } from '../sandbox/settings.ts';
import { budgetFor } from './budget.ts';
import { anySignal, isCancelled } from './cancellation.ts';
import { fetchOriginal } from './fetch-original.ts';
import { ocrSettingsFor } from './ocr-settings.ts';
import type { ProcessDeps } from './process-deps.ts';
import { progressReporter } from './progress.ts';
import { publishRun } from './publish/publish-run.ts';
import { readPinnedOriginal } from './read-original.ts';
import { CHUNKS_UNTIL, transcribeInChunks, type ChunkedSpeech } from './speech-flow.ts';

export type { ProcessDeps } from './process-deps.ts';

/**
 * Turns a `processing` material into `active` or `error`. Safe to run twice: it does nothing unless the row
 * is still `processing`, and its final write is guarded by that status, so a duplicate run changes nothing.
 */
export async function processMaterial(
  job: Job<JobMap['process-material']>,
  deps: ProcessDeps,
  token?: string,
): Promise<ProcessResult> {
  const { db } = deps;
  const materialId = job.data.materialId;
  const material = await findMaterialForProcessing(db, materialId);
  if (!material || material.status !== 'processing') return { status: 'skipped' };

  const log = deps.logger.child({ jobId: job.id, materialId, attempt: job.attemptsMade + 1 });
  const started = Date.now();
  const workDir = await makeJobDir();
  // The row keeps the last value for readers; the job event reaches open /events streams at once.
  const publishProgress = (percent: number) =>
    Promise.all([recordProgress(deps, materialId, percent), job.updateProgress(percent)]);
  try {
    const outcome = await extract(material, workDir, deps, log, publishProgress, { job, token });
    const run: RunMeasures = {
      processingMs: Date.now() - started,
      ...(outcome.peakRssMb !== undefined ? { peakMemoryMb: Math.round(outcome.peakRssMb) } : {}),
    };
    if (!outcome.ok) {
      log.info({ code: outcome.code, ...run }, 'processing failed: %s', outcome.message);
      const { code, message, claimedType, detectedType } = outcome;
      const error: MaterialError = { code, message, ...(claimedType ? { claimedType, detectedType } : {}) };
      return await fail(deps, material, error, run);
    }
    const published = await publishRun(deps, material, outcome, path.join(workDir, 'out'), run, log);
    log.info({ ...run, status: published.status }, 'processing finished');
    return published.status === 'active'
      ? { status: 'active', contentType: outcome.contentType, webhookDeliveries: published.webhookDeliveries }
      : { status: 'skipped', contentType: outcome.contentType };
  } catch (err) {
    if (err instanceof WaitingChildrenError) throw err;
    if (isCancelled(deps.cancel)) {
      // The cancel settled the material (error, CANCELLED) before it reached this job.
      log.info({ processingMs: Date.now() - started }, 'processing cancelled');
      return { status: 'cancelled' };
    }
    const attempts = job.opts.attempts ?? 1;
    if (deps.shutdown?.aborted || job.attemptsMade + 1 < attempts) throw err;
    log.error({ err }, 'processing failed on the last attempt');
    const error: MaterialError = { code: 'INTERNAL', message: 'Processing failed because of an internal error' };
    return fail(deps, material, error, { processingMs: Date.now() - started });
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

type Outcome = (
  | { ok: true; result: ExtractResult; contentType: ContentType }
  | { ok: false; code: ExtractError['code']; message: string; claimedType?: string; detectedType?: string }
) & { peakRssMb?: number };

async function extract(
  material: Material,
  workDir: string,
  deps: ProcessDeps,
  log: Logger,
  publishProgress: (percent: number) => Promise<unknown>,
  run: { job: Job<JobMap['process-material']>; token?: string },
): Promise<Outcome> {
  const { source } = material;
  // A lost progress update costs only a less precise bar; the run goes on.
  const reportProgress = progressReporter(publishProgress, (err) => log.debug({ err }, 'could not publish progress'));

  if (source.kind === 'text') {
    const text = normalizeText(source.text);
    return {
      ok: true,
      result: { text, segments: paragraphsOf(text), images: [], metadata: {} },
      contentType: 'text',
    };
  }

  const inputPath = path.join(workDir, 'input');
  let contentType = material.contentType;
  const original = originalOf(source);
  let mimeType = original?.mimeType;
  if (original) {
    const read = await readPinnedOriginal(deps.store, original, inputPath);
    if (!read.ok) return read;
  } else if (source.kind === 'url') {
    const fetched = await fetchOriginal(material, source, inputPath, deps);
    if (!fetched.ok) return fetched;
    contentType = fetched.contentType;
    mimeType = fetched.mimeType;
  }
  const charset = charsetOf(mimeType);
  reportProgress(5);

  // Long recordings are transcribed in chunks by any free worker slot; the sandbox then does the rest.
  let speech: ChunkedSpeech = { kind: 'whole' };
  if ((contentType === 'audio' || contentType === 'video') && deps.queue && run.token) {
    speech = await transcribeInChunks(
      { job: run.job, token: run.token, queue: deps.queue, material, inputPath, workDir },
      deps,
      log,
      reportProgress,
    );
    if (speech.kind === 'failed') return { ok: false, code: speech.code, message: speech.message };
  }
  const from = speech.kind === 'joined' ? CHUNKS_UNTIL : 5;

  const outputDir = path.join(workDir, 'out');
  await fs.mkdir(outputDir);
  const { size } = await fs.stat(inputPath);
  const budget = budgetFor(contentType, size, deps.config, speech.durationSeconds);
  const outcome = await (deps.sandbox ?? oneOffSandbox(sandboxSettingsOf(deps.config)))(
    {
      contentType,
      inputPath,
      outputDir,
      extractImages: material.extractImages,
      ...(source.kind === 'url' ? { sourceUrl: source.url } : {}),
      ...(charset ? { charset } : {}),
      ...(original?.filename ? { fileName: original.filename } : {}),
      ...(mimeType ? { mimeType } : {}),
      jobSettings: {
        ...(speech.kind === 'joined' ? { speechEngine: 'none' } : {}),
        ...ocrSettingsFor(material, deps.config, budget),
      },
    },
    budget,
    (percent) => reportProgress(from + Math.round((percent * (99 - from)) / 100)),
    anySignal(deps.shutdown, deps.cancel),
  );
  if (!outcome.ok) return outcome;
  if (speech.kind !== 'joined') return { ...outcome, contentType };
  const { segments, about } = speech;
  const text = segments.map((s) => s.text).join('\n');
  const result = { ...outcome.result, text, segments, metadata: { ...outcome.result.metadata, transcription: about } };
  return { ...outcome, result, contentType };
}

/** Records a failed run on the material (see `recordFailure`), as the job's result. */
async function fail(
  deps: ProcessDeps,
  material: Material,
  error: MaterialError,
  run: RunMeasures,
): Promise<ProcessResult> {
  const failed = await recordFailure(deps, material, error, run);
  if (failed.status === 'skipped') return { status: 'skipped' };
  const { contentType } = failed.material;
  return { status: 'error', contentType, errorCode: error.code, webhookDeliveries: failed.webhookDeliveries };
}

import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { WaitingChildrenError, type Job } from 'bullmq';
import {
  findMaterialForProcessing,
  forgetObjects,
  listObjects,
  patchProcessingMetadata,
  recordObject,
  lockMaterialIn,
  replaceChunks,
  transitionMaterial,
  type Db,
} from '@quire/db';
import {
  countWords,
  EXTRACTOR_VERSIONS,
  type ExtractError,
  normalizeText,
  type ContentType,
  type ExtractResult,
} from '@quire/extract';
import {
  CONTENT_METADATA,
  originalOf,
  segmentsAreJustTheText,
  storageKeys,
  textSegmentsOf,
  withError,
  withResult,
  type Material,
  type MaterialError,
  type ProcessingResult,
  type RunMeasures,
  type StoredImage,
} from '@quire/material';
import type { JobMap, ProcessResult } from '@quire/queue';
import { recordMaterialEvent } from '@quire/webhooks';
import type { Logger } from 'pino';
import { makeJobDir } from '../sandbox/job-dirs.ts';
import { runSandboxed } from '../sandbox/run-sandboxed.ts';
import { budgetFor } from './budget.ts';
import { chunkSegments } from './chunk-segments.ts';
import { fetchOriginal } from './fetch-original.ts';
import { jsonSafe } from './json-safe.ts';
import { ocrSettingsFor } from './ocr-settings.ts';
import type { ProcessDeps } from './process-deps.ts';
import { progressReporter } from './progress.ts';
import { readPinnedOriginal } from './read-original.ts';
import { CHUNKS_UNTIL, transcribeInChunks, type ChunkedSpeech } from './speech-flow.ts';

export type { ProcessDeps } from './process-deps.ts';

const toNdjson = (records: unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

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
    Promise.all([patchProcessingMetadata(db, materialId, { progress: percent }), job.updateProgress(percent)]);
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
      return await finishWithError(db, material, error, run);
    }
    const { status, webhookDeliveries } = await finishActive(deps, material, outcome, workDir, run, log);
    log.info({ ...run, status }, 'processing finished');
    return { status, contentType: outcome.contentType, webhookDeliveries };
  } catch (err) {
    const attempts = job.opts.attempts ?? 1;
    if (err instanceof WaitingChildrenError || deps.shutdown?.aborted || job.attemptsMade + 1 < attempts) throw err;
    log.error({ err }, 'processing failed on the last attempt');
    const error: MaterialError = { code: 'INTERNAL', message: 'Processing failed because of an internal error' };
    return finishWithError(db, material, error, { processingMs: Date.now() - started });
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
      result: { text, segments: text ? [{ text }] : [], images: [], metadata: {} },
      contentType: 'text',
    };
  }

  const inputPath = path.join(workDir, 'input');
  let contentType = material.contentType;
  const original = originalOf(source);
  if (original) {
    const read = await readPinnedOriginal(deps.store, original, inputPath);
    if (!read.ok) return read;
  } else if (source.kind === 'url') {
    const fetched = await fetchOriginal(material, source, inputPath, deps);
    if (!fetched.ok) return fetched;
    contentType = fetched.contentType;
  }
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
  const outcome = await (deps.sandbox ?? runSandboxed)(
    {
      contentType,
      inputPath,
      outputDir,
      extractImages: material.extractImages,
      ...(source.kind === 'url' ? { sourceUrl: source.url } : {}),
      ffmpegPath: deps.config.extraction.ffmpegPath,
      ffprobePath: deps.config.extraction.ffprobePath,
      pdfEngine: deps.config.extraction.pdfEngine,
      speechEngine: speech.kind === 'joined' ? 'none' : deps.config.extraction.speechEngine,
      pocketsphinxPath: deps.config.extraction.pocketsphinxPath,
      pocketsphinxModelDir: deps.config.extraction.pocketsphinxModelDir,
      ...ocrSettingsFor(material, deps.config, budget),
    },
    budget,
    (percent) => reportProgress(from + Math.round((percent * (99 - from)) / 100)),
    deps.shutdown,
  );
  if (!outcome.ok) return outcome;
  if (speech.kind !== 'joined') return { ...outcome, contentType };
  const { segments, about } = speech;
  const text = segments.map((s) => s.text).join('\n');
  const result = { ...outcome.result, text, segments, metadata: { ...outcome.result.metadata, transcription: about } };
  return { ...outcome, result, contentType };
}

async function finishActive(
  deps: ProcessDeps,
  material: Material,
  { result, contentType }: { result: ExtractResult; contentType: ContentType },
  workDir: string,
  run: RunMeasures,
  log: Logger,
): Promise<{ status: 'active' | 'skipped'; webhookDeliveries?: string[] }> {
  const { db, store, config } = deps;
  const runKey = storageKeys.derivedRun(material.organizationId, material.id);
  const written: { key: string; bytes: number }[] = [];
  const put = async (name: string, body: Buffer | string, contentType: string) => {
    const key = storageKeys.derived(runKey, name);
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    await store.put(key, data, { contentType });
    written.push({ key, bytes: data.length });
    return key;
  };
  const putFile = async (name: string, format: string) => {
    const key = storageKeys.derived(runKey, name);
    const { size } = await store.put(key, createReadStream(path.join(workDir, 'out', name)), {
      contentType: `image/${format}`,
    });
    written.push({ key, bytes: size });
    return key;
  };

  try {
    // The sandbox's output crosses a process boundary: it is checked against the type's schema, not trusted.
    const contentFields = CONTENT_METADATA[contentType].parse(result.metadata);
    const segments = textSegmentsOf(result.text, result.segments, contentType);
    const inline = result.text.length <= config.extraction.inlineTextMaxChars;
    // `/text` makes the one segment of a short unpositioned text from the text itself; others are kept.
    const keepSegments = !inline || !segmentsAreJustTheText(segments, result.text, contentType);
    const processed: ProcessingResult = {
      wordCount: countWords(result.text),
      textLength: result.text.length,
      ...(!inline
        ? {
            textKey: await put('text.txt', result.text, 'text/plain; charset=utf-8'),
            textUrl: `/api/v1/materials/${material.id}/text`,
          }
        : { extractedText: result.text }),
      ...(keepSegments && segments.length > 0
        ? { segmentsKey: await put('segments.ndjson', toNdjson(segments), 'application/x-ndjson') }
        : {}),
      extractor: EXTRACTOR_VERSIONS[contentType],
    };

    const images: StoredImage[] = [];
    for (const [index, image] of result.images.entries()) {
      const s3Key = await putFile(image.file, image.format);
      const position = {
        ...(image.page !== undefined ? { page: image.page } : {}),
        ...(image.chapter !== undefined ? { chapter: image.chapter } : {}),
        ...(image.timestampMs !== undefined ? { timestampMs: image.timestampMs } : {}),
      };
      const entry = {
        id: `${material.id}-${index + 1}`,
        s3Key,
        ...position,
        width: image.width,
        height: image.height,
        format: image.format,
      };
      if (image.role === 'preview' || image.role === 'thumbnail') processed[image.role] = entry;
      else images.push({ ...entry, kind: image.role });
    }
    if (material.extractImages) processed.images = images;
    const metadata = withResult(material.metadata, contentFields, processed, run);
    const chunks = chunkSegments(result.segments.length > 0 ? result.segments : [{ text: result.text }]);

    const derivedBytes = written.reduce((sum, o) => sum + o.bytes, 0);
    const committed = await db.transaction().execute(async (trx) => {
      if (!(await lockMaterialIn(trx, material.id, ['processing']))) return undefined;
      await replaceChunks(trx, material.organizationId, material.id, chunks);
      const updated = await transitionMaterial(trx, material.id, ['processing'], 'active', {
        metadata: jsonSafe(metadata),
        derivedBytes,
      });
      if (!updated) return undefined;
      const previous = await listObjects(trx, material.id, 'derived');
      await forgetObjects(
        trx,
        material.id,
        previous.map((o) => o.key),
      );
      for (const object of written) await recordObject(trx, material.id, object.key, 'derived', object.bytes);
      return {
        replaced: previous.map((o) => o.key),
        webhookDeliveries: await recordMaterialEvent(trx, updated, 'material.processed'),
      };
    });
    if (!committed) {
      // Deleted or finished by another run meanwhile: what this run wrote belongs to nobody.
      await store.remove(written.map((o) => o.key));
      return { status: 'skipped' };
    }
    await store
      .remove(committed.replaced)
      .catch((err) => log.warn({ err, keys: committed.replaced }, "the previous run's objects could not be removed"));
    return { status: 'active', webhookDeliveries: committed.webhookDeliveries };
  } catch (err) {
    await store
      .remove(written.map((o) => o.key))
      .catch((removeErr) => log.warn({ err: removeErr }, 'objects of a failed run could not be removed'));
    throw err;
  }
}

export async function finishWithError(
  db: Db,
  material: Material,
  error: MaterialError,
  run: RunMeasures,
): Promise<ProcessResult> {
  const metadata = withError(material.metadata, error, run);
  return db.transaction().execute(async (trx) => {
    const updated = await transitionMaterial(trx, material.id, ['processing'], 'error', {
      metadata: jsonSafe(metadata),
    });
    if (!updated) return { status: 'skipped' };
    const webhookDeliveries = await recordMaterialEvent(trx, updated, 'material.failed');
    return { status: 'error', contentType: updated.contentType, errorCode: error.code, webhookDeliveries };
  });
}

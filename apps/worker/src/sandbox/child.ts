import fs from 'node:fs/promises';
import v8 from 'node:v8';
import { CONTENT_TYPES, ExtractError, type ExtractorSettings, type ExtractResult } from '@quire/extract';
import { createExtractor } from '@quire/extract/extractors';
import {
  packResult,
  type ChildMessage,
  type ChildReport,
  type ParentMessage,
  type SandboxOutcome,
  type SandboxSpec,
} from './protocol.ts';

const send = (message: ChildMessage) => process.send?.(message);

/**
 * Loads every extractor module once, so that a job pays none of it; heavy engines (pdf.js, tesseract) load on
 * their first file and stay, PDFium's WebAssembly at once. Called by the entry point before it serves jobs.
 */
export async function preloadExtractors(settings: ExtractorSettings): Promise<void> {
  // glibc read it when this process started (see WarmChild); the tools a job runs keep glibc's own behaviour.
  delete process.env.MALLOC_MMAP_THRESHOLD_;
  // Before PDFium's WebAssembly is compiled: inlining its small functions into their callers reads text 15 %
  // faster, with the same text on every corpus file. Off by default in Node 20's V8 (11.3), where it was new;
  // on by default in later ones. A V8 without the flag says so on stderr and goes on.
  v8.setFlagsFromString('--wasm-inlining');
  await Promise.all(CONTENT_TYPES.map((type) => createExtractor(type, settings)));
  const { keepOcrEngines, warmPdfEngine } = await import('@quire/extract/extractors');
  await keepOcrEngines();
  await warmPdfEngine(settings.pdfEngine);
}

/** Serves one job at a time over IPC for as long as the parent keeps this process, with the settings it started with. */
export function serveJobs(settings: ExtractorSettings): void {
  let imagesUntil = Number.POSITIVE_INFINITY;
  let busy = false;
  process.on('message', (message: ParentMessage) => {
    if (message?.type === 'images-budget') imagesUntil = Date.now() + message.ms;
    if (message?.type !== 'run') return;
    if (busy) throw new Error('a job arrived while another was running');
    busy = true;
    imagesUntil = Number.POSITIVE_INFINITY;
    void runJob(settings, message.spec, () => imagesUntil).then((report) => {
      busy = false;
      send({ type: 'done', report: report.ok ? { ...report, result: packResult(report.result) } : report });
      collectWhenGrown();
    });
  });
  oldGenerationAfterCollection = oldGenerationMb();
  send({ type: 'ready' });
}

/**
 * V8 collects its old generation only when it reaches a limit set at the last full collection, so a warm child
 * carried the garbage of one large job into the peaks of the next ones: the same 600-page PDF, read three times
 * in one child, peaked at 243, 268 and 296 MB. After a job that left this much more in the old generation than
 * the last collection did, one full collection (about 15 ms), once the result is sent.
 */
const COLLECT_AFTER_GROWTH_MB = 8;
let oldGenerationAfterCollection = 0;

function collectWhenGrown(): void {
  if (!globalThis.gc || oldGenerationMb() - oldGenerationAfterCollection < COLLECT_AFTER_GROWTH_MB) return;
  globalThis.gc();
  oldGenerationAfterCollection = oldGenerationMb();
}

/** The heap without its young generation, which comes and goes with every job. */
function oldGenerationMb(): number {
  const spaces = v8.getHeapSpaceStatistics().filter((space) => !space.space_name.startsWith('new_'));
  return spaces.reduce((sum, space) => sum + space.space_used_size, 0) / 1024 ** 2;
}

async function runJob(
  settings: ExtractorSettings,
  spec: SandboxSpec,
  imagesDeadline: () => number,
): Promise<ChildReport> {
  await resetPeakRss();
  let outcome: SandboxOutcome;
  try {
    const extract = await createExtractor(spec.contentType, { ...settings, ...spec.jobSettings });
    const result = await extract(spec.inputPath, {
      extractImages: spec.extractImages,
      outputDir: spec.outputDir,
      ...(spec.sourceUrl ? { sourceUrl: spec.sourceUrl } : {}),
      ...(spec.charset ? { charset: spec.charset } : {}),
      ...(spec.fileName ? { fileName: spec.fileName } : {}),
      ...(spec.mimeType ? { mimeType: spec.mimeType } : {}),
      onProgress: (percent) => send({ type: 'progress', percent }),
      onPageCount: (count) => send({ type: 'pages', count }),
      onText: (partial: ExtractResult) => send({ type: 'text', result: packResult(partial) }),
      onImage: (image) => send({ type: 'image', image }),
      imagesDeadline,
    });
    outcome = { ok: true, result };
  } catch (err) {
    outcome =
      err instanceof ExtractError
        ? { ok: false, code: err.code, message: err.message }
        : { ok: false, code: 'CORRUPT', message: `The file could not be processed: ${(err as Error)?.message ?? err}` };
  }
  return { ...outcome, peakRssMb: await peakRssMb() };
}

/** Starts this job's high-water mark from what the process holds now, so a job reports its own peak. */
async function resetPeakRss(): Promise<void> {
  await fs.writeFile('/proc/self/clear_refs', '5').catch(() => {});
}

/**
 * This process's own high-water mark. Not getrusage's maxRSS: Linux carries that over exec from the process
 * that forked, so it reports the worker's peak whenever the worker is the larger, and it cannot be reset.
 */
async function peakRssMb(): Promise<number> {
  const status = await fs.readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : process.resourceUsage().maxRSS / 1024;
}

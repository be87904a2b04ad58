import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { materialFromRow } from '@quire/material';
import { descendantsOf, rssMb, type ServiceProcess } from '@quire/testkit/processes';
// The fixture generators on their own: the testkit's index also loads its vitest-bound test stack.
import { makeEpub, makeTextImage } from '@quire/testkit/fixtures';
import { speechAudio } from '@quire/testkit/media-fixtures';
import { startBenchStack, stopProcess, type BenchStack } from './bench-stack.ts';
import { makeBookPdf } from './pdf-book.ts';
import { machine, printTable, reportWritten } from './results.ts';

const POLL_MS = 200;
const SETTLE_TIMEOUT_MS = 5 * 60_000;
/** Linux's USER_HZ, the unit of /proc/PID/stat times. */
const CLOCK_TICKS = 100;

interface Options {
  texts: number;
  pdfs: number;
  pdfPages: number;
  images: number;
  epubs: number;
  audio: number;
  configs: { workers: number; concurrency: number }[];
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      texts: { type: 'string', default: '16' },
      pdfs: { type: 'string', default: '16' },
      'pdf-pages': { type: 'string', default: '6' },
      images: { type: 'string', default: '6' },
      epubs: { type: 'string', default: '6' },
      audio: { type: 'string', default: '4' },
      // workers x WORKER_CONCURRENCY, in the order run; the first is the baseline of the speedups.
      configs: { type: 'string', default: '1x1,1x2,2x1,2x2' },
    },
  });
  const count = (name: 'texts' | 'pdfs' | 'pdf-pages' | 'images' | 'epubs' | 'audio') => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  const configs = values.configs.split(',').map((c) => {
    const [workers, concurrency] = c.split('x').map(Number);
    if (!Number.isInteger(workers) || !Number.isInteger(concurrency) || workers! < 1 || concurrency! < 1) {
      throw new Error(`--configs: "${c}" is not WORKERSxCONCURRENCY`);
    }
    return { workers: workers!, concurrency: concurrency! };
  });
  return {
    texts: count('texts'),
    pdfs: count('pdfs'),
    pdfPages: Math.max(1, count('pdf-pages')),
    images: count('images'),
    epubs: count('epubs'),
    audio: count('audio'),
    configs,
  };
}

interface Upload {
  kind: string;
  name: string;
  text?: string;
  file?: { body: Buffer; filename: string; type: string };
}

/** The same mixed batch for every configuration, made once; each file differs so none is deduplicated. */
async function makeBatch(o: Options): Promise<{ uploads: Upload[]; notes: string[] }> {
  const notes: string[] = [];
  const uploads: Upload[] = [];
  const paragraph = (i: number) =>
    `Lesson ${i}: the cell membrane controls what enters and leaves the cell. Diffusion moves particles from high to low concentration; ` +
    'active transport spends energy to move them the other way. '.repeat(40);
  for (let i = 0; i < o.texts; i++) uploads.push({ kind: 'text', name: `Text ${i + 1}`, text: paragraph(i + 1) });
  const { pdf } = await makeBookPdf(o.pdfPages);
  for (let i = 0; i < o.pdfs; i++) {
    // A trailing comment keeps every copy distinct bytes without changing what it shows.
    const body = Buffer.concat([pdf, Buffer.from(`\n%copy ${i + 1}\n`)]);
    uploads.push({
      kind: 'pdf',
      name: `Book ${i + 1}`,
      file: { body, filename: `book-${i + 1}.pdf`, type: 'application/pdf' },
    });
  }
  for (let i = 0; i < o.images; i++) {
    const body = await makeTextImage(
      [`Worksheet ${i + 1}`, 'Label the parts of the cell', 'nucleus membrane cytoplasm'],
      { width: 1200 },
    );
    uploads.push({
      kind: 'image',
      name: `Worksheet ${i + 1}`,
      file: { body, filename: `worksheet-${i + 1}.png`, type: 'image/png' },
    });
  }
  for (let i = 0; i < o.epubs; i++) {
    const chapters = Array.from({ length: 6 }, (_, c) => ({
      title: `Chapter ${c + 1}`,
      paragraphs: [paragraph(i * 10 + c), paragraph(i * 10 + c + 1)],
    }));
    const body = await makeEpub(chapters, { title: `Reader ${i + 1}`, pictureInChapter: 2 });
    uploads.push({
      kind: 'epub',
      name: `Reader ${i + 1}`,
      file: { body, filename: `reader-${i + 1}.epub`, type: 'application/epub+zip' },
    });
  }
  if (o.audio > 0) {
    const audio = await speechAudio('mp3').catch((err: Error) => {
      notes.push(
        `no audio in the batch: ${err.message.split('\n')[0]} (needs ffmpeg and pocketsphinx-testdata: apt-get install ffmpeg pocketsphinx-testdata)`,
      );
      return undefined;
    });
    for (let i = 0; audio && i < o.audio; i++) {
      const body = Buffer.concat([audio, Buffer.alloc(i + 1)]);
      uploads.push({
        kind: 'audio',
        name: `Recording ${i + 1}`,
        file: { body, filename: `recording-${i + 1}.mp3`, type: 'audio/mpeg' },
      });
    }
  }
  return { uploads, notes };
}

async function upload(url: string, apiKey: string, item: Upload): Promise<string> {
  const headers = { 'x-api-key': apiKey };
  let response: Response;
  if (item.text !== undefined) {
    response = await fetch(`${url}/api/v1/materials`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: item.name, content: { text: item.text } }),
    });
  } else {
    const form = new FormData();
    form.append('name', item.name);
    form.append('file', new Blob([item.file!.body], { type: item.file!.type }), item.file!.filename);
    response = await fetch(`${url}/api/v1/materials/upload`, { method: 'POST', headers, body: form });
  }
  if (response.status !== 201) throw new Error(`uploading ${item.name}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * CPU seconds of a worker's own process, and of its sandboxes: those it has reaped (their ffmpeg and
 * pocketsphinx included) and the warm ones still running. utime and stime of /proc/PID/stat, with cutime and
 * cstime for what each has reaped.
 */
async function cpuSecondsWithChildren(pid: number): Promise<{ worker: number; sandboxes: number }> {
  const ticksOf = async (one: number) => {
    const stat = await fs.readFile(`/proc/${one}/stat`, 'utf8').catch(() => '');
    return stat
      ? stat
          .slice(stat.lastIndexOf(')') + 2)
          .split(' ')
          .slice(11, 15)
          .map(Number)
      : [0, 0, 0, 0];
  };
  const [utime = 0, stime = 0, cutime = 0, cstime = 0] = await ticksOf(pid);
  let sandboxes = cutime + cstime;
  for (const { pid: one } of await descendantsOf(pid)) sandboxes += (await ticksOf(one)).reduce((a, b) => a + b, 0);
  return { worker: (utime + stime) / CLOCK_TICKS, sandboxes: sandboxes / CLOCK_TICKS };
}

async function statusCounts(stack: BenchStack, organizationId: string): Promise<Record<string, number>> {
  const rows = await stack.db
    .selectFrom('materials')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('organization_id', '=', organizationId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

interface ConfigResult {
  workers: number;
  concurrency: number;
  materials: number;
  active: number;
  error: number;
  seconds: number;
  materialsPerMinute: number;
  workerBootSeconds: number;
  workerPeakRssMb: number;
  sandboxPeakRssMb: number;
  /** Mean of the materials' own processingMs: rising with concurrency means they compete for the cores. */
  meanProcessingSeconds: number;
  /** Processing time over wall time times job slots: below 1, slots sat idle. */
  slotsBusy: number;
  /** CPU time of the workers and their sandboxes over wall time: the cores this configuration actually got. */
  coresUsed: number;
  /** Materials per minute of that CPU time: what the batch costs, whatever share of the machine it got. */
  materialsPerCpuMinute: number;
  /** That CPU time split: the workers' own processes, and their sandboxes with the tools they ran. */
  workerCpuSeconds: number;
  sandboxCpuSeconds: number;
  /** Seconds from spawning the workers to the first material's extraction starting: their start-up. */
  firstStartSeconds: number;
  /** Per kind of material: how many, their summed processing seconds, and when the last one was done. */
  kinds: Record<string, { materials: number; processingSeconds: number; lastDoneSeconds: number }>;
  /** Each material: its kind, when its processing started and ended, seconds from spawning the workers. */
  timeline: { kind: string; start: number; end: number }[];
  errors: Record<string, number>;
}

async function runConfig(
  stack: BenchStack,
  apiUrl: string,
  uploads: Upload[],
  workers: number,
  concurrency: number,
): Promise<ConfigResult> {
  const tenant = await stack.newTenant();
  // Uploaded while no worker runs, so the workers start on a full queue.
  const pending = [...uploads];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let item = pending.shift(); item; item = pending.shift()) await upload(apiUrl, tenant.apiKey, item);
    }),
  );

  const started = performance.now();
  const startedAt = Date.now();
  let workerBootMs = 0;
  const processes: ServiceProcess[] = await Promise.all(
    Array.from({ length: workers }, async () => {
      const worker = await stack.startWorker({ WORKER_CONCURRENCY: String(concurrency) });
      workerBootMs = Math.max(workerBootMs, performance.now() - started);
      return worker;
    }),
  );
  let workerPeak = 0;
  let counts: Record<string, number>;
  for (;;) {
    for (const p of processes) workerPeak = Math.max(workerPeak, await rssMb(p.child.pid!).catch(() => 0));
    counts = await statusCounts(stack, tenant.organizationId);
    if (!counts.processing) break;
    if (performance.now() - started > SETTLE_TIMEOUT_MS)
      throw new Error(`materials still processing after ${SETTLE_TIMEOUT_MS / 1000} s: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const ms = performance.now() - started;
  const cpu = await Promise.all(processes.map((p) => cpuSecondsWithChildren(p.child.pid!)));
  const workerCpuSeconds = cpu.reduce((sum, c) => sum + c.worker, 0);
  const sandboxCpuSeconds = cpu.reduce((sum, c) => sum + c.sandboxes, 0);
  const cpuSeconds = workerCpuSeconds + sandboxCpuSeconds;
  await Promise.all(processes.map((p) => stopProcess(p)));

  const rows = (
    await stack.db.selectFrom('materials').selectAll().where('organization_id', '=', tenant.organizationId).execute()
  ).map(materialFromRow);
  const errors: Record<string, number> = {};
  for (const r of rows.filter((r) => r.status === 'error')) {
    const code = r.metadata.error?.code ?? 'unknown';
    errors[code] = (errors[code] ?? 0) + 1;
  }
  const sandboxPeak = Math.max(0, ...rows.map((r) => r.metadata.peakMemoryMb ?? 0));
  // The row's last update is the worker's finishing transaction; its processing ran for processingMs before that
  // (less the storage writes of the finish, a few ms).
  const seconds = (ms: number) => Math.round(ms / 10) / 100;
  const timeline = rows
    .map((r) => {
      const end = r.updatedAt.getTime() - startedAt;
      return {
        kind: r.contentType ?? r.source.kind,
        start: seconds(end - (r.metadata.processingMs ?? 0)),
        end: seconds(end),
      };
    })
    .sort((a, b) => a.start - b.start);
  const kinds: ConfigResult['kinds'] = {};
  for (const t of timeline) {
    const kind = (kinds[t.kind] ??= { materials: 0, processingSeconds: 0, lastDoneSeconds: 0 });
    kind.materials++;
    kind.processingSeconds = Math.round((kind.processingSeconds + t.end - t.start) * 100) / 100;
    kind.lastDoneSeconds = Math.max(kind.lastDoneSeconds, t.end);
  }
  const processingMs = rows.reduce((sum, r) => sum + (r.metadata.processingMs ?? 0), 0);
  return {
    workers,
    concurrency,
    materials: uploads.length,
    active: counts.active ?? 0,
    error: counts.error ?? 0,
    seconds: Math.round(ms / 100) / 10,
    materialsPerMinute: Math.round((uploads.length * 60_000 * 10) / ms) / 10,
    workerBootSeconds: Math.round(workerBootMs / 100) / 10,
    workerPeakRssMb: Math.round(workerPeak),
    sandboxPeakRssMb: sandboxPeak,
    meanProcessingSeconds: Math.round(processingMs / rows.length / 10) / 100,
    slotsBusy: Math.round((processingMs / (ms * workers * concurrency)) * 100) / 100,
    coresUsed: Math.round(((cpuSeconds * 1000) / ms) * 100) / 100,
    materialsPerCpuMinute: Math.round(((uploads.length * 60) / cpuSeconds) * 10) / 10,
    workerCpuSeconds: Math.round(workerCpuSeconds * 100) / 100,
    sandboxCpuSeconds: Math.round(sandboxCpuSeconds * 100) / 100,
    firstStartSeconds: Math.min(...timeline.map((t) => t.start)),
    kinds,
    timeline,
    errors,
  };
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const { uploads, notes } = await makeBatch(o);
  const mix = [...new Set(uploads.map((u) => u.kind))].map(
    (kind) => `${uploads.filter((u) => u.kind === kind).length} ${kind}`,
  );
  console.log(
    `worker-scaling benchmark: a batch of ${uploads.length} materials (${mix.join(', ')}; PDFs of ${o.pdfPages} pages) per configuration`,
  );
  for (const note of notes) console.log(`  ${note}`);
  const stack = await startBenchStack();
  try {
    const api = await stack.startApi();
    // Not counted: the first extraction of each kind reads its libraries and models (tesseract's, pocketsphinx's)
    // from disk, which would be charged to whichever configuration came first.
    const firstOfEachKind = [...new Set(uploads.map((u) => u.kind))].map((kind) =>
      uploads.find((u) => u.kind === kind)!,
    );
    const warmUp = await runConfig(stack, api.url, firstOfEachKind, 1, 2);
    console.log(`  warm-up, one material of each kind: ${warmUp.seconds} s`);
    const results: ConfigResult[] = [];
    for (const c of o.configs) {
      const result = await runConfig(stack, api.url, uploads, c.workers, c.concurrency);
      results.push(result);
      console.log(
        `  ${c.workers} worker(s) x concurrency ${c.concurrency}: ${result.seconds} s, load average ${machine().loadAverage[0]}`,
      );
    }
    const baseline = results[0]!.materialsPerMinute;
    console.log('');
    printTable(
      results.map((r) => ({
        workers: r.workers,
        concurrency: r.concurrency,
        materials: `${r.active} ok, ${r.error} error`,
        's (from spawn)': r.seconds,
        'worker boot s': r.workerBootSeconds,
        'materials/min': r.materialsPerMinute,
        speedup: Math.round((r.materialsPerMinute / baseline) * 100) / 100,
        'mean s/material': r.meanProcessingSeconds,
        'slots busy': r.slotsBusy,
        'cores used': r.coresUsed,
        'materials/CPU-min': r.materialsPerCpuMinute,
        'CPU s worker + sandboxes': `${r.workerCpuSeconds} + ${r.sandboxCpuSeconds}`,
        'worker peak MB': r.workerPeakRssMb,
        'sandbox peak MB': r.sandboxPeakRssMb,
      })),
    );
    console.log('');
    printTable(
      results.flatMap((r) =>
        Object.entries(r.kinds).map(([kind, k]) => ({
          config: `${r.workers}x${r.concurrency}`,
          kind,
          materials: k.materials,
          'processing s': k.processingSeconds,
          's each': Math.round((k.processingSeconds / k.materials) * 100) / 100,
          'last done at s': k.lastDoneSeconds,
        })),
      ),
    );
    console.log(
      "processing s: summed over the kind's materials (fetch, sandbox, not the finishing transaction); " +
        `first extraction started at ${results.map((r) => `${r.firstStartSeconds} s (${r.workers}x${r.concurrency})`).join(', ')} from spawn.`,
    );
    for (const r of results.filter((r) => r.error > 0))
      console.log(`errors with ${r.workers}x${r.concurrency}: ${JSON.stringify(r.errors)}`);
    const summary = {
      benchmark: 'worker-scaling',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      batch: { materials: uploads.length, mix, pdfPages: o.pdfPages, notes },
      measuredThrough:
        'the real api (uploads, while no worker runs) and worker entry points as processes; time from spawning the workers ' +
        'until no material of the tenant is processing (database polled every 200 ms), worker start-up included. ' +
        'Worker peak: RSS of each worker process polled; sandbox peak: the largest peakMemoryMb the materials recorded; ' +
        'cores used: CPU seconds of the workers, their reaped sandboxes and their warm ones still running (/proc/PID/stat) ' +
        'over the wall time. Workers run the compiled build (npm run build) with plain node, as production does.',
      results: results.map((r) => ({ ...r, speedup: Math.round((r.materialsPerMinute / baseline) * 100) / 100 })),
      totalSeconds: Math.round((performance.now() - began) / 100) / 10,
    };
    await reportWritten('worker-scaling', summary, loadBefore);
  } finally {
    await stack.stop();
  }
}

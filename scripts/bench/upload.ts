import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { makePdf } from '@quire/testkit/fixtures';
import { startBenchStack, stopProcess, type BenchStack } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten, summarize, type LatencySummary } from './results.ts';

const MB = 1024 ** 2;
/** Reads of the file being sent or copied; large enough that the per-chunk overhead does not count. */
const CHUNK = MB;

function parseOptions(args: string[]): { mb: number; pdfs: number } {
  const { values } = parseArgs({
    args,
    options: { mb: { type: 'string', default: '1024' }, pdfs: { type: 'string', default: '40' } },
  });
  const mb = Number(values.mb);
  if (!Number.isInteger(mb) || mb < 1) throw new Error('--mb must be a positive integer');
  return { mb, pdfs: positiveInt(values.pdfs, 'pdfs') };
}

/**
 * One-page PDFs through POST /upload/file-and-process, one after another, with one worker running: the time
 * a user waits for an uploaded handout to come back processed. Each file differs by a trailing comment.
 */
async function onePagePdfLatency(
  stack: BenchStack,
  samples: number,
  workerSettings: Record<string, string>,
): Promise<LatencySummary> {
  const api = await stack.startApi();
  const worker = await stack.startWorker({ WORKER_CONCURRENCY: '1', ...workerSettings });
  const { apiKey } = await stack.newTenant();
  const pdf = await makePdf(['A one-page handout: photosynthesis turns light, water and carbon dioxide into sugar.']);
  const upload = async (i: number) => {
    const form = new FormData();
    form.append('name', `Handout ${i}`);
    form.append('file', new Blob([Buffer.concat([pdf, Buffer.from(`\n%${i}\n`)])]), `handout-${i}.pdf`);
    const t0 = performance.now();
    const res = await fetch(`${api.url}/api/v1/materials/upload/file-and-process`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
      body: form,
    });
    const body = (await res.json()) as { status?: string };
    if (res.status !== 201 || body.status !== 'active')
      throw new Error(`handout ${i}: ${res.status} ${JSON.stringify(body)}`);
    return performance.now() - t0;
  };
  try {
    // Not counted: the first request of a process warms its connections and code paths.
    await upload(0);
    const times: number[] = [];
    for (let i = 1; i <= samples; i++) times.push(await upload(i));
    return summarize(times);
  } finally {
    await stopProcess(worker);
    await stopProcess(api.process);
  }
}

/**
 * Plain text, because it is the cheapest type to make and the api accepts it from its bytes alone; no
 * worker runs during this benchmark, so nothing extracts it afterwards.
 */
async function writeTextFile(file: string, bytes: number): Promise<void> {
  const line = 'The quick brown fox jumps over the lazy dog; learning materials stream through quire.\n';
  const block = Buffer.from(line.repeat(Math.ceil(CHUNK / line.length)).slice(0, CHUNK));
  async function* blocks() {
    for (let left = bytes; left > 0; left -= CHUNK) yield left >= CHUNK ? block : block.subarray(0, left);
  }
  await pipeline(Readable.from(blocks()), createWriteStream(file));
  // On disk before anything is timed, so no measurement pays for writing back this file's dirty pages.
  const handle = await fs.open(file, 'r');
  await handle.sync();
  await handle.close();
}

/** Samples a process's resident memory; VmHWM is the kernel's own peak, reset before each measured upload. */
export class RssSampler {
  private timer?: NodeJS.Timeout;
  maxRssMb = 0;
  constructor(private readonly pid: number) {}
  private async read(): Promise<{ rssMb: number; hwmMb: number }> {
    const status = await fs.readFile(`/proc/${this.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  }
  async start(): Promise<number> {
    // "5" resets the peak to the current resident size (proc(5), clear_refs).
    await fs.writeFile(`/proc/${this.pid}/clear_refs`, '5');
    const { rssMb } = await this.read();
    this.maxRssMb = rssMb;
    this.timer = setInterval(() => {
      this.read().then(
        (r) => (this.maxRssMb = Math.max(this.maxRssMb, r.rssMb)),
        () => {},
      );
    }, 20);
    return rssMb;
  }
  async stop(): Promise<{ maxRssMb: number; hwmMb: number }> {
    clearInterval(this.timer);
    const { rssMb, hwmMb } = await this.read();
    return { maxRssMb: Math.max(this.maxRssMb, rssMb), hwmMb };
  }
}

/** Sends `file` as a request body straight from disk, with `prefix`/`suffix` around it (multipart framing). */
function send(
  url: string,
  options: {
    method: string;
    headers: Record<string, string>;
    file: string;
    size: number;
    prefix?: Buffer;
    suffix?: Buffer;
  },
): Promise<{ status: number; body: string }> {
  const prefix = options.prefix ?? Buffer.alloc(0);
  const suffix = options.suffix ?? Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method,
      headers: { ...options.headers, 'content-length': String(prefix.length + options.size + suffix.length) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    async function* body() {
      yield prefix;
      yield* createReadStream(options.file, { highWaterMark: CHUNK });
      yield suffix;
    }
    pipeline(Readable.from(body()), req).catch(reject);
  });
}

const mbPerSecond = (bytes: number, ms: number) => Math.round(bytes / MB / (ms / 1000));
const round = (n: number) => Math.round(n * 10) / 10;

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const size = o.mb * MB;
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  console.log(
    `upload benchmark: a ${o.mb} MB text file through POST /upload and through an upload URL, no worker running`,
  );
  const stack = await startBenchStack();
  const source = path.join(stack.dataDir, 'upload-source.txt');
  const copy = path.join(stack.dataDir, 'upload-copy.txt');
  try {
    const t = performance.now();
    await writeTextFile(source, size);
    console.log(`  wrote the file in ${Math.round(performance.now() - t)} ms`);

    // The baseline: the same bytes copied on the same disk, by the kernel (copy_file_range) and through
    // user space (a Node stream, as any upload must); the best of three each, the machine being shared.
    const bestOfThree = async (copyOnce: () => Promise<unknown>) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await copyOnce();
        best = Math.min(best, performance.now() - t0);
        await fs.rm(copy);
      }
      return best;
    };
    const copyFileMs = await bestOfThree(() => fs.copyFile(source, copy));
    const streamCopyMs = await bestOfThree(() =>
      pipeline(createReadStream(source, { highWaterMark: CHUNK }), createWriteStream(copy)),
    );

    const api = await stack.startApi({ UPLOAD_MAX_BYTES: String(size + MB) });
    const pid = api.process.child.pid!;
    const { apiKey } = await stack.newTenant();
    const auth = { 'x-api-key': apiKey };
    const measure = async <T>(upload: () => Promise<T>) => {
      const sampler = new RssSampler(pid);
      const startRssMb = await sampler.start();
      const t0 = performance.now();
      const result = await upload();
      const ms = performance.now() - t0;
      return { result, ms, startRssMb, ...(await sampler.stop()) };
    };
    const storedSize = async (materialId: string) => {
      const res = await fetch(`${api.url}/api/v1/materials/${materialId}`, { headers: auth });
      const body = (await res.json()) as { status: string; content: { fileSize?: number } };
      if (body.content.fileSize !== size)
        throw new Error(`stored ${body.content.fileSize} bytes, sent ${size}: ${JSON.stringify(body)}`);
      return body.status;
    };

    const boundary = `----quirebench${Date.now()}`;
    const multipart = await measure(async () => {
      const prefix = Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="name"\r\n\r\nUpload benchmark\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.txt"\r\ncontent-type: text/plain\r\n\r\n`,
      );
      const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
      const res = await send(`${api.url}/api/v1/materials/upload`, {
        method: 'POST',
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        file: source,
        size,
        prefix,
        suffix,
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body}`);
      return (JSON.parse(res.body) as { _id: string })._id;
    });
    await storedSize(multipart.result);

    let putMs = 0;
    const uploadUrl = await measure(async () => {
      const json = { ...auth, 'content-type': 'application/json' };
      const slot = (await (
        await fetch(`${api.url}/api/v1/materials/upload/presigned-url`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ filename: 'big.txt', contentType: 'text/plain', name: 'Upload URL benchmark' }),
        })
      ).json()) as { uploadUrl: string; s3Key: string; materialId: string };
      const t0 = performance.now();
      const put = await send(slot.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        file: source,
        size,
      });
      putMs = performance.now() - t0;
      if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${put.body}`);
      const done = await fetch(`${api.url}/api/v1/materials/upload/complete`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ materialId: slot.materialId, s3Key: slot.s3Key }),
      });
      if (done.status !== 200) throw new Error(`complete answered ${done.status}: ${await done.text()}`);
      return slot.materialId;
    });
    await storedSize(uploadUrl.result);
    await stopProcess(api.process);

    // Side by side: the warm sandbox pool as configured by default, and one fresh process per job.
    const handouts = {
      warmPool: await onePagePdfLatency(stack, o.pdfs, {}),
      processPerJob: await onePagePdfLatency(stack, o.pdfs, { EXTRACT_CHILD_MAX_JOBS: '1' }),
    };

    const rows = [
      { path: 'fs.copyFile (baseline)', ms: copyFileMs },
      { path: 'stream copy (baseline)', ms: streamCopyMs },
      { path: 'POST /upload (multipart)', ms: multipart.ms, memory: multipart },
      { path: 'upload URL: presign + PUT + complete', ms: uploadUrl.ms, memory: uploadUrl },
      { path: 'upload URL: the PUT alone', ms: putMs },
    ].map((r) => ({
      path: r.path,
      seconds: round(r.ms / 1000),
      mbPerSecond: mbPerSecond(size, r.ms),
      xCopyFile: round(r.ms / copyFileMs),
      xStreamCopy: round(r.ms / streamCopyMs),
      apiRssBeforeMb: r.memory ? Math.round(r.memory.startRssMb) : '',
      apiPeakRssMb: r.memory ? Math.round(r.memory.hwmMb) : '',
      apiMaxSampledRssMb: r.memory ? Math.round(r.memory.maxRssMb) : '',
    }));
    const summary = {
      benchmark: 'upload',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      fileBytes: size,
      measuredThrough:
        'one api process (local-disk storage in the temp dir, no worker); the file is streamed from disk by this process ' +
        'over loopback HTTP in 1 MB reads. Times include the api storing, hashing and sniffing the file and writing the row. ' +
        'apiPeakRssMb is VmHWM of the api process after resetting it (clear_refs 5) just before the upload; ' +
        'apiMaxSampledRssMb is the largest VmRSS read every 20 ms. xCopyFile and xStreamCopy divide each time by the best of ' +
        'three fs.copyFile (in-kernel copy_file_range) and Node stream copies (1 MB reads) of the same file on the same disk ' +
        '(into the page cache, no fsync, as the api writes).',
      results: rows,
      onePagePdfFileAndProcess: {
        measuredThrough:
          'POST /upload/file-and-process of a one-page PDF, one at a time after one uncounted request, one compiled api ' +
          'and one compiled worker at concurrency 1; milliseconds from sending the request to the 201 with the active ' +
          'material. warmPool: the default sandbox pool; processPerJob: EXTRACT_CHILD_MAX_JOBS=1.',
        ...handouts,
      },
      totalSeconds: Math.round((performance.now() - began) / 100) / 10,
    };
    console.log('');
    printTable(rows);
    console.log(`\none-page PDF through /upload/file-and-process (${o.pdfs} in a row, ms):`);
    printTable(Object.entries(handouts).map(([sandbox, l]) => ({ sandbox, ...l })));
    await reportWritten('upload', summary, loadBefore);
  } finally {
    await fs.rm(source, { force: true });
    await fs.rm(copy, { force: true });
    await stack.stop();
  }
}

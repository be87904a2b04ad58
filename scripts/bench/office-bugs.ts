import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs, promisify } from 'node:util';
import { EXTRACT_ERROR_CODES } from '@quire/extract';
import { startBenchStack, stopProcess } from './bench-stack.ts';
import { machine, printTable, reportWritten } from './results.ts';

/**
 * Apache POI's test data: the files its bug reports came with (odd, damaged, encrypted, fuzzed Word, PowerPoint
 * and Excel files, Apache License 2.0). Debian ships POI's source with them; the tarball is fetched once from
 * Debian's archive, checked against the hash Debian's `Sources` index gives, and kept in the temp dir.
 */
const POI = {
  url: 'http://deb.debian.org/debian/pool/main/liba/libapache-poi-java/libapache-poi-java_4.0.1.orig.tar.xz',
  sha256: '54db524e2bae73658e4fdb3a6e2d69cb4137638ace71fcde93659be2695287ea',
  folders: ['test-data/document', 'test-data/slideshow', 'test-data/spreadsheet'],
};
const OFFICE_FILE =
  /\.(doc|docx|docm|dot|dotx|dotm|ppt|pptx|pptm|pps|ppsx|pot|potx|xls|xlsx|xlsm|xlsb|xlt|xltx|xltm)$/i;
/** Long enough for every file to be tried and, when slow, cut off by its own budget; a material still processing after it is stuck. */
const SETTLE_MS = 90 * 60_000;

interface Outcome {
  file: string;
  bytes: number;
  status: string;
  httpStatus?: number;
  code?: string;
  message?: string;
  processingMs?: number;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The POI test data's office files, unpacked under the temp dir (fetched the first time). */
async function poiCorpus(cacheDir: string): Promise<string> {
  const tarball = path.join(cacheDir, path.basename(POI.url));
  const unpacked = path.join(cacheDir, 'poi-test-data');
  if (await fs.stat(unpacked).catch(() => undefined)) return unpacked;
  await fs.mkdir(cacheDir, { recursive: true });
  if (!(await fs.stat(tarball).catch(() => undefined))) {
    console.log(`fetching ${POI.url}`);
    const res = await fetch(POI.url);
    if (!res.ok || !res.body) throw new Error(`${POI.url}: HTTP ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(`${tarball}.part`));
    await fs.rename(`${tarball}.part`, tarball);
  }
  const sum = await sha256Of(tarball);
  if (sum !== POI.sha256) {
    await fs.rm(tarball);
    throw new Error(`${tarball}: sha256 ${sum}, expected ${POI.sha256}`);
  }
  const staging = `${unpacked}.part`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging);
  const wildcards = POI.folders.map((f) => `*/${f}/*`);
  await promisify(execFile)('tar', [
    '-xJf',
    tarball,
    '-C',
    staging,
    '--strip-components=1',
    '--wildcards',
    ...wildcards,
  ]);
  await fs.rename(staging, unpacked);
  return unpacked;
}

async function officeFiles(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && OFFICE_FILE.test(e.name))
    .map((e) => path.relative(folder, path.join(e.parentPath, e.name)))
    .sort();
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      // Any folder of office files instead of POI's (every file whose name ends in an office extension is read).
      folder: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const folder = values.folder ?? (await poiCorpus(path.join(os.tmpdir(), 'quire-bench-cache')));
  const files = await officeFiles(folder);
  if (files.length === 0) throw new Error(`no office files under ${folder}`);
  console.log(`office bug corpus: ${files.length} files from ${folder}`);

  const stack = await startBenchStack();
  try {
    const api = await stack.startApi();
    const worker = await stack.startWorker({ WORKER_CONCURRENCY: values.concurrency });
    const workerPid = worker.child.pid;
    const tenant = await stack.newTenant();
    const ids = new Map<string, { file: string; bytes: number }>();
    const outcomes: Outcome[] = [];
    for (const file of files) {
      const body = await fs.readFile(path.join(folder, file));
      const form = new FormData();
      form.append('name', file);
      form.append('file', new Blob([body]), path.basename(file));
      const res = await fetch(`${api.url}/api/v1/materials/upload`, {
        method: 'POST',
        headers: { 'x-api-key': tenant.apiKey },
        body: form,
      });
      const json = (await res.json()) as { _id?: string; message?: string };
      if (res.status === 201 && json._id) ids.set(json._id, { file, bytes: body.length });
      else
        outcomes.push({ file, bytes: body.length, status: 'refused', httpStatus: res.status, message: json.message });
    }
    console.log(`uploaded ${ids.size}, refused at upload ${outcomes.length}; waiting for the worker`);

    const settleStarted = performance.now();
    let unsettled = ids.size;
    while (performance.now() - settleStarted < SETTLE_MS) {
      const row = await stack.db
        .selectFrom('materials')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('id', 'in', [...ids.keys()])
        .where('status', 'not in', ['active', 'error'])
        .executeTakeFirstOrThrow();
      unsettled = Number(row.n);
      if (unsettled === 0 || worker.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    const workerExited = worker.child.exitCode !== null || worker.child.signalCode !== null;
    const rows = await stack.db
      .selectFrom('materials')
      .select(['id', 'status', 'metadata'])
      .where('id', 'in', [...ids.keys()])
      .execute();
    for (const row of rows) {
      const metadata = row.metadata as { error?: { code: string; message: string }; processingMs?: number };
      const { file, bytes } = ids.get(row.id)!;
      outcomes.push({
        file,
        bytes,
        status: row.status,
        code: metadata.error?.code,
        message: metadata.error?.message,
        processingMs: metadata.processingMs,
      });
    }
    outcomes.sort((a, b) => a.file.localeCompare(b.file));
    await stopProcess(worker);
    // What the worker said of the files that failed (its errors and warnings), for reading beside the results.
    const workerLog = path.join(stack.dataDir, '..', `office-bugs-worker-${process.pid}.log`);
    await fs.writeFile(workerLog, worker.output());
    console.log(`the worker's log: ${workerLog}`);

    const byExtension = new Map<string, Outcome[]>();
    for (const o of outcomes) {
      const ext = path.extname(o.file).slice(1).toLowerCase();
      byExtension.set(ext, [...(byExtension.get(ext) ?? []), o]);
    }
    const count = (list: Outcome[], status: string) => list.filter((o) => o.status === status).length;
    const tableRows = [...byExtension.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([ext, list]) => ({
        type: ext,
        files: list.length,
        active: count(list, 'active'),
        error: count(list, 'error'),
        refused: count(list, 'refused'),
        stuck: list.filter((o) => !['active', 'error', 'refused'].includes(o.status)).length,
      }));
    const errorsByCode: Record<string, number> = {};
    for (const o of outcomes)
      if (o.status === 'error') errorsByCode[o.code ?? '?'] = (errorsByCode[o.code ?? '?'] ?? 0) + 1;
    const unknownCodes = outcomes.filter((o) => o.status === 'error' && !EXTRACT_ERROR_CODES.includes(o.code as never));
    const active = count(outcomes, 'active');
    const totals = {
      files: outcomes.length,
      active,
      activeShare: Math.round((active / outcomes.length) * 1000) / 1000,
      error: count(outcomes, 'error'),
      refusedAtUpload: count(outcomes, 'refused'),
      stuck: unsettled,
      errorsByCode,
      errorsWithoutAKnownCode: unknownCodes.length,
      workerExited,
      workerPid,
      settleSeconds: Math.round((performance.now() - settleStarted) / 1000),
    };
    console.log('');
    printTable(tableRows);
    console.log(`\n${JSON.stringify(totals, null, 2)}`);
    if (values.verbose) {
      for (const o of outcomes.filter((x) => x.status !== 'active'))
        console.log(
          `${o.status.padEnd(7)} ${(o.code ?? String(o.httpStatus ?? '')).padEnd(12)} ${o.file}: ${o.message ?? ''}`,
        );
    }
    const summary = {
      benchmark: 'office-bugs',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      corpus: values.folder ?? { source: POI.url, sha256: POI.sha256, folders: POI.folders, licence: 'Apache-2.0' },
      measuredThrough:
        'the real api and one worker process (default budgets, WORKER_CONCURRENCY as given), every file uploaded, then ' +
        `the database polled until none is processing (at most ${SETTLE_MS / 60_000} minutes)`,
      totals,
      byType: tableRows,
      files: outcomes,
      totalSeconds: Math.round((performance.now() - began) / 1000),
    };
    await reportWritten('office-bugs', summary, loadBefore);
  } finally {
    await stack.stop();
  }
}

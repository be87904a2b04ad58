import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACT_ERROR_CODES } from '@quire/extract';
import {
  rssMb,
  spawnService,
  startTestStack,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A folder of files nobody here wrote, whose README names each one's source and licence. */
interface Corpus {
  name: string;
  folder: string;
  files: RegExp;
  summary: string;
  /** Whether the api may refuse a file at upload (empty, or no format it knows). */
  mayBeRefused: boolean;
  /** The content type every file of it must get, where there is one. */
  contentType?: string;
  /** Files whose outcome is known: how each must end, and within how long. */
  known?: Record<string, { status: string; cutAt?: string; maxProcessingMs: number }>;
}

const CORPORA: Corpus[] = [
  {
    // Real-world and deliberately damaged files: pdf.js's regression corpus, IDPF EPUB samples.
    name: 'corpus',
    folder: path.join(ROOT, 'test', 'fixtures', 'corpus'),
    files: /\.(pdf|epub)$/i,
    summary: path.join(ROOT, 'test-results', 'corpus-robustness.json'),
    mayBeRefused: true,
  },
  {
    // Office files: Docling's test data, python-pptx's test decks, part of Apache POI's bug corpus. Every one is an office file: none may be
    // refused as of an unknown type.
    name: 'office',
    folder: path.join(ROOT, 'test', 'fixtures', 'office'),
    files: /\.(docx|pptx|xlsx|xlsm|xlsb|odt|odp|ods|doc|ppt|xls)$/i,
    summary: path.join(ROOT, 'test-results', 'office-robustness.json'),
    mayBeRefused: false,
    contentType: 'text',
    known: {
      // One 1 MB shared string in 12,000 cells: cut at the workbook's characters (3.4 s, most of it publishing 8 MB
      // of text), where the sandbox used to end it TOO_LARGE at its memory ceiling.
      'poi/poc-shared-strings.xlsx': { status: 'active', cutAt: 'maxWorkbookChars', maxProcessingMs: 10_000 },
    },
  },
];
// Tight but fair for files of a few hundred kilobytes; the sandbox must cut off anything slower or larger.
const LIMITS = { EXTRACT_TIMEOUT_MS: '30000', EXTRACT_MAX_MEMORY_MB: '1024', WORKER_CONCURRENCY: '2' };

interface FileOutcome {
  file: string;
  bytes: number;
  contentType?: string;
  status: string;
  /** Set for a file the api refused at upload (empty, or no format it knows). */
  httpStatus?: number;
  code?: string;
  message?: string;
  processingMs?: number;
  peakMemoryMb?: number;
  /** The limits a workbook's sheets were cut at. */
  cutAt?: string[];
}

let stack: TestStack;
let tenant: Tenant;
let worker: ServiceProcess;
let workerExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

beforeAll(async () => {
  stack = await startTestStack({ worker: false, config: LIMITS });
  tenant = await stack.newTenant();
  worker = spawnService('worker', stack.env);
  void worker.exited.then((exit) => (workerExit = exit));
  await waitUntil(() => worker.output().includes('worker started'), 30_000, 'the worker to start');
});
afterAll(async () => {
  if (worker?.child.exitCode === null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await stack?.close();
});

async function corpusFiles(corpus: Corpus): Promise<string[]> {
  // A missing corpus throws here and fails the test: a robustness run over nothing proves nothing.
  const entries = await fs.readdir(corpus.folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && corpus.files.test(e.name))
    .map((e) => path.relative(corpus.folder, path.join(e.parentPath, e.name)))
    .sort();
}

async function upload(corpus: Corpus, file: string): Promise<{ id?: string; outcome?: FileOutcome }> {
  const body = await fs.readFile(path.join(corpus.folder, file));
  const form = new FormData();
  form.append('name', file);
  form.append('file', new Blob([body]), path.basename(file));
  const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form });
  const json = await res.json();
  if (res.status === 201) return { id: json._id };
  // An empty file (400) or bytes of no known format (415) never become a material; the api says so at once.
  expect(corpus.mayBeRefused ? [400, 415] : [201], `${file}: ${JSON.stringify(json)}`).toContain(res.status);
  return { outcome: { file, bytes: body.length, status: 'rejected', httpStatus: res.status, message: json.message } };
}

describe.each(CORPORA)('every file of the $name folder through the real api and a real worker process', (corpus) => {
  it('ends each one active or error with a code, and the worker never restarts', { timeout: 900_000 }, async () => {
    const files = await corpusFiles(corpus);
    expect(files.length).toBeGreaterThan(0);
    // Every file is in the README's tables, which name its source and licence.
    const readme = await fs.readFile(path.join(corpus.folder, 'README.md'), 'utf8');
    expect([...readme.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]).sort()).toEqual(files);
    const workerPid = worker.child.pid!;
    const workerBaseline = await rssMb(workerPid);
    let workerPeak = workerBaseline;
    const sampler = setInterval(() => {
      rssMb(workerPid).then(
        (mb) => (workerPeak = Math.max(workerPeak, mb)),
        () => {},
      );
    }, 500);

    const started = Date.now();
    const ids = new Map<string, string>();
    const outcomes: FileOutcome[] = [];
    for (const file of files) {
      const { id, outcome } = await upload(corpus, file);
      if (id) ids.set(id, file);
      if (outcome) outcomes.push(outcome);
    }

    const finished = async () => {
      const rows = await stack.db
        .selectFrom('materials')
        .select('status')
        .where('id', 'in', [...ids.keys()])
        .execute();
      return rows.every((r) => r.status === 'active' || r.status === 'error');
    };
    // Generous, so that only a stuck material fails here (listed below), not a slow machine.
    await waitUntil(finished, 780_000, `every file of ${corpus.name} to finish processing`)
      .catch(() => {})
      .finally(() => clearInterval(sampler));
    const wallMs = Date.now() - started;

    const rows = await stack.db
      .selectFrom('materials')
      .select(['id', 'status', 'content_type', 'content', 'metadata'])
      .where('id', 'in', [...ids.keys()])
      .execute();
    for (const row of rows) {
      const metadata = row.metadata as {
        error?: { code: string; message: string };
        processingMs?: number;
        peakMemoryMb?: number;
        cutSheets?: { cutAt?: string }[];
      };
      outcomes.push({
        file: ids.get(row.id)!,
        bytes: (row.content as { fileSize: number }).fileSize,
        contentType: row.content_type,
        status: row.status,
        code: metadata.error?.code,
        message: metadata.error?.message,
        processingMs: metadata.processingMs,
        peakMemoryMb: metadata.peakMemoryMb,
        ...(metadata.cutSheets ? { cutAt: [...new Set(metadata.cutSheets.map((cut) => cut.cutAt ?? '?'))] } : {}),
      });
    }
    outcomes.sort((a, b) => a.file.localeCompare(b.file));

    const totals = summarize(outcomes, wallMs, {
      baselineMb: Math.round(workerBaseline),
      peakMb: Math.round(workerPeak),
    });
    await fs.mkdir(path.dirname(corpus.summary), { recursive: true });
    await fs.writeFile(corpus.summary, JSON.stringify({ totals, files: outcomes }, null, 2));
    console.log(`${corpus.name} robustness (${corpus.summary}):\n${JSON.stringify(totals, null, 2)}`);

    expect(outcomes).toHaveLength(files.length);
    for (const o of outcomes) {
      expect(['active', 'error', 'rejected'], o.file).toContain(o.status);
      if (o.status === 'rejected') continue;
      if (corpus.contentType) expect(o.contentType, o.file).toBe(corpus.contentType);
      expect(o.processingMs, o.file).toBeGreaterThan(0);
      expect(o.peakMemoryMb, o.file).toBeGreaterThan(0);
      if (o.status === 'error') {
        expect(EXTRACT_ERROR_CODES, o.file).toContain(o.code);
        // Whatever is wrong with these files is theirs: an INTERNAL error here is a bug in quire.
        expect(o.code, `${o.file}: ${o.message}`).not.toBe('INTERNAL');
        expect(o.message?.length, o.file).toBeGreaterThan(10);
      }
    }
    for (const [file, { status, cutAt, maxProcessingMs }] of Object.entries(corpus.known ?? {})) {
      const outcome = outcomes.find((o) => o.file === file);
      expect(outcome, file).toMatchObject({ status, ...(cutAt ? { cutAt: [cutAt] } : {}) });
      expect(outcome!.processingMs, file).toBeLessThan(maxProcessingMs);
    }
    // The same worker process did all of it: never exited, never replaced, and no extraction's memory became its own.
    expect(workerExit, worker.output().slice(-3000)).toBeUndefined();
    expect(worker.child.pid).toBe(workerPid);
    expect(worker.child.exitCode).toBeNull();
    expect(workerPeak - workerBaseline).toBeLessThan(200);
  });
});

function summarize(outcomes: FileOutcome[], wallMs: number, worker: { baselineMb: number; peakMb: number }) {
  const processed = outcomes.filter((o) => o.status !== 'rejected');
  const errorsByCode: Record<string, number> = {};
  for (const o of outcomes) if (o.status === 'error' && o.code) errorsByCode[o.code] = (errorsByCode[o.code] ?? 0) + 1;
  const slowest = processed.reduce((a, b) => ((b.processingMs ?? 0) > (a.processingMs ?? 0) ? b : a), processed[0]!);
  const hungriest = processed.reduce((a, b) => ((b.peakMemoryMb ?? 0) > (a.peakMemoryMb ?? 0) ? b : a), processed[0]!);
  return {
    files: outcomes.length,
    active: outcomes.filter((o) => o.status === 'active').length,
    error: outcomes.filter((o) => o.status === 'error').length,
    rejectedAtUpload: outcomes.filter((o) => o.status === 'rejected').length,
    errorsByCode,
    wallMs,
    totalProcessingMs: processed.reduce((sum, o) => sum + (o.processingMs ?? 0), 0),
    maxProcessingMs: { file: slowest?.file, ms: slowest?.processingMs },
    maxPeakMemoryMb: { file: hungriest?.file, mb: hungriest?.peakMemoryMb },
    workerRssMb: worker,
  };
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { makePdf } from '@quire/testkit/fixtures';
import { startBenchStack, type BenchStack } from './bench-stack.ts';
import { makeRecording } from './media.ts';
import { machine, positiveInt, printTable, reportWritten, summarize, type LatencySummary } from './results.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../test/fixtures/corpus/pdf');
const POLL_MS = 500;
/** Uploads of organization A in flight at once: a bulk importer that does not wait for processing. */
const UPLOAD_CONCURRENCY = 4;

interface Options {
  pdfs: number;
  recordingMinutes: number;
  bPdfs: number;
  bTexts: number;
  delaySeconds: number;
  concurrency: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      // Organization A's bulk import: corpus PDFs (cycled through the corpus) and one recording.
      pdfs: { type: 'string', default: '300' },
      'recording-minutes': { type: 'string', default: '30' },
      // Organization B's requests, one after another, through the *-and-process endpoints.
      'b-pdfs': { type: 'string', default: '20' },
      'b-texts': { type: 'string', default: '20' },
      // How long after A starts uploading B begins.
      'delay-seconds': { type: 'string', default: '10' },
      // WORKER_CONCURRENCY of the one worker process (npm start's default is 2).
      concurrency: { type: 'string', default: '2' },
    },
  });
  const minutes = Number(values['recording-minutes']);
  if (!Number.isFinite(minutes) || minutes < 0) throw new Error('--recording-minutes must be a number of at least 0');
  const delay = Number(values['delay-seconds']);
  if (!Number.isFinite(delay) || delay < 0) throw new Error('--delay-seconds must be a number of at least 0');
  return {
    pdfs: positiveInt(values.pdfs, 'pdfs'),
    recordingMinutes: minutes,
    bPdfs: positiveInt(values['b-pdfs'], 'b-pdfs'),
    bTexts: positiveInt(values['b-texts'], 'b-texts'),
    delaySeconds: delay,
    concurrency: positiveInt(values.concurrency, 'concurrency'),
  };
}

interface FileUpload {
  name: string;
  body: Buffer;
  filename: string;
  type: string;
}

/** A's import: `pdfs` corpus PDFs, each made distinct bytes by a trailing comment, and the recording, uploaded first. */
async function importOf(o: Options, recording: Buffer | undefined): Promise<FileUpload[]> {
  const files = await Promise.all(
    (await fs.readdir(CORPUS))
      .filter((f) => f.endsWith('.pdf'))
      .sort()
      .map(async (name) => ({ name, body: await fs.readFile(path.join(CORPUS, name)) })),
  );
  // The corpus keeps a damaged file or two that are not PDFs at all; the api rightly refuses those (415).
  const pdfs = files.filter((f) => f.body.subarray(0, 5).toString('latin1') === '%PDF-');
  const names = pdfs.map((f) => f.name);
  const corpus = pdfs.map((f) => f.body);
  const uploads: FileUpload[] = [];
  if (recording) uploads.push({ name: 'Lecture', body: recording, filename: 'lecture.mp3', type: 'audio/mpeg' });
  for (let i = 0; i < o.pdfs; i++) {
    const k = i % names.length;
    uploads.push({
      name: `Corpus ${i + 1}`,
      body: Buffer.concat([corpus[k]!, Buffer.from(`\n%copy ${i + 1}\n`)]),
      filename: names[k]!,
      type: 'application/pdf',
    });
  }
  return uploads;
}

async function upload(url: string, apiKey: string, item: FileUpload): Promise<void> {
  const form = new FormData();
  form.append('name', item.name);
  form.append('file', new Blob([item.body], { type: item.type }), item.filename);
  const res = await fetch(`${url}/api/v1/materials/upload`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
    body: form,
  });
  if (res.status !== 201) throw new Error(`uploading ${item.name}: ${res.status} ${await res.text()}`);
}

/** Runs the import without waiting for processing; resolves when every material of A has settled. */
async function runImport(stack: BenchStack, url: string, items: FileUpload[]) {
  const { organizationId, apiKey } = await stack.newTenant();
  const started = performance.now();
  const queue = [...items];
  await Promise.all(
    Array.from({ length: UPLOAD_CONCURRENCY }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) await upload(url, apiKey, item);
    }),
  );
  const uploadedSeconds = (performance.now() - started) / 1000;
  for (;;) {
    const { rows } = await sql<{ status: string; n: number }>`
      select status, count(*)::int as n from materials where organization_id = ${organizationId} group by status
    `.execute(stack.db);
    const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    if (count('processing') === 0) {
      return {
        settledAt: performance.now(),
        totalSeconds: Math.round(performance.now() - started) / 1000,
        uploadedSeconds: Math.round(uploadedSeconds * 10) / 10,
        active: count('active'),
        error: count('error'),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** B's requests, one after another, PDF and text in turn; each one's time from request to answer. */
async function runInteractive(stack: BenchStack, url: string, o: Options, label: string) {
  const { apiKey } = await stack.newTenant();
  const samples: { kind: 'pdf' | 'text'; sentAt: number; ms: number; status: number }[] = [];
  const total = o.bPdfs + o.bTexts;
  let pdfs = 0;
  let texts = 0;
  for (let i = 0; i < total; i++) {
    const pdfTurn = (i % 2 === 0 && pdfs < o.bPdfs) || texts >= o.bTexts;
    const sent = performance.now();
    let res: Response;
    if (pdfTurn) {
      pdfs++;
      const body = await makePdf([`${label} handout ${pdfs}: the cell membrane controls what enters the cell.`]);
      const form = new FormData();
      form.append('name', `${label} handout ${pdfs}`);
      form.append('file', new Blob([body], { type: 'application/pdf' }), `handout-${pdfs}.pdf`);
      form.append('timeoutMs', '600000');
      res = await fetch(`${url}/api/v1/materials/upload/file-and-process`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey },
        body: form,
      });
    } else {
      texts++;
      res = await fetch(`${url}/api/v1/materials/upload-and-process`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `${label} note ${texts}`,
          content: { text: `${label} note ${texts}: osmosis moves water across a membrane.` },
          timeoutMs: 600_000,
        }),
      });
    }
    await res.arrayBuffer();
    samples.push({ kind: pdfTurn ? 'pdf' : 'text', sentAt: sent, ms: performance.now() - sent, status: res.status });
  }
  const notCreated = samples.filter((s) => s.status !== 201).length;
  return { samples, all: summarize(samples.map((s) => s.ms)), notCreated };
}

const row = (phase: string, s: LatencySummary | undefined, extra: Record<string, string | number> = {}) =>
  s ? summaryRow(phase, s, extra) : { phase, samples: 0, 'p50 ms': '-', 'p95 ms': '-', 'max ms': '-', ...extra };

const summaryRow = (phase: string, s: LatencySummary, extra: Record<string, string | number>) => ({
  phase,
  samples: s.samples,
  'p50 ms': s.p50,
  'p95 ms': s.p95,
  'max ms': s.max,
  ...extra,
});

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  console.log(
    `fairness benchmark: organization A imports ${o.pdfs} corpus PDFs and a ${o.recordingMinutes}-minute recording ` +
      `without waiting; ${o.delaySeconds} s later organization B makes ${o.bPdfs} one-page PDF and ${o.bTexts} text ` +
      `*-and-process calls one after another; one worker process, WORKER_CONCURRENCY=${o.concurrency}`,
  );
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-fairness-'));
  const stack = await startBenchStack();
  try {
    const recording =
      o.recordingMinutes > 0
        ? await fs.readFile((await makeRecording(dir, 'lecture', o.recordingMinutes)).mp3)
        : undefined;
    const items = await importOf(o, recording);
    const { url } = await stack.startApi();
    await stack.startWorker({ WORKER_CONCURRENCY: String(o.concurrency) });

    // Warm-up, so that neither measured phase pays for the first sandbox children and connections.
    await runInteractive(stack, url, { ...o, bPdfs: 2, bTexts: 2 }, 'Warm-up');
    console.log('B alone (idle fleet)...');
    const idle = await runInteractive(stack, url, o, 'B idle');
    console.log(`A alone (${items.length} uploads)...`);
    const aloneBefore = await runImport(stack, url, items);
    console.log('A again, with B starting after the delay...');
    const importing = runImport(stack, url, items);
    await new Promise((resolve) => setTimeout(resolve, o.delaySeconds * 1000));
    const during = await runInteractive(stack, url, o, 'B busy');
    const withB = await importing;
    // A alone once more: a shared machine's load drifts over minutes, and the two runs bracket the one with B.
    console.log('A alone again...');
    const aloneAfter = await runImport(stack, url, items);
    const aloneSeconds = Math.round(((aloneBefore.totalSeconds + aloneAfter.totalSeconds) / 2) * 1000) / 1000;

    // A request B sent once A's import had settled saw an idle fleet again: only those sent before count as "during".
    const whileDraining = during.samples.filter((x) => x.sentAt < withB.settledAt).map((x) => x.ms);
    const draining = whileDraining.length > 0 ? summarize(whileDraining) : undefined;
    console.log('\nOrganization B, one request at a time');
    printTable([
      row('idle', idle.all),
      row("sent while A's import drained", draining, {
        'p95 / idle p95': draining ? Math.round((draining.p95 / idle.all.p95) * 100) / 100 : '-',
      }),
      row(`all ${during.all.samples} after the delay`, during.all, {
        'p95 / idle p95': Math.round((during.all.p95 / idle.all.p95) * 100) / 100,
      }),
    ]);
    console.log('\nOrganization A, upload start to every material settled');
    const importRow = (run: string, r: typeof withB) => ({
      run,
      'total s': r.totalSeconds,
      'uploads s': r.uploadedSeconds,
      active: r.active,
      error: r.error,
    });
    printTable([
      importRow('A alone, first', aloneBefore),
      importRow('A with B', withB),
      importRow('A alone, again', aloneAfter),
    ]);
    const ratio = Math.round((withB.totalSeconds / aloneSeconds) * 1000) / 1000;
    console.log(`A with B / mean of A alone (${aloneSeconds} s): ${ratio}`);
    if (idle.notCreated + during.notCreated > 0) {
      console.log(`B requests not answered 201: ${idle.notCreated} idle, ${during.notCreated} while A drained`);
    }
    const results = {
      options: o,
      bIdle: idle,
      bDuringImport: { ...during, whileDraining: draining },
      aAlone: [aloneBefore, aloneAfter],
      aWithB: withB,
      aRatio: ratio,
      machine: machine(),
      totalSeconds: Math.round((performance.now() - began) / 1000),
    };
    await reportWritten('fairness', results, loadBefore);
  } finally {
    await stack.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

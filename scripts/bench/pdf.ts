import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SandboxPool } from '../../apps/worker/src/sandbox/pool.ts';
import { makeBookPdf } from './pdf-book.ts';
import { benchSettings, textOnlySpec } from './sandbox-spec.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PARENT_POLL_MS = 50;

interface Options {
  corpus: string;
  pages: number;
  repeat: number;
  timeoutMs: number;
  maxMemoryMb: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: 'string', default: path.join(ROOT, 'test', 'fixtures', 'corpus', 'pdf') },
      pages: { type: 'string', default: '600' },
      // Runs of the large PDF; the median counts, so one burst of load from elsewhere does not.
      repeat: { type: 'string', default: '3' },
      // Per corpus file. The worker's own budget grows with size and pages up to 10 min; a bomb would
      // spend all of it here, so a file past this one counts as a timeout, as the worker would end it.
      'timeout-ms': { type: 'string', default: '20000' },
      'max-memory-mb': { type: 'string', default: '2048' },
    },
  });
  const int = (name: 'pages' | 'repeat' | 'timeout-ms' | 'max-memory-mb') => positiveInt(values[name], name);
  return {
    corpus: values.corpus,
    pages: int('pages'),
    repeat: int('repeat'),
    timeoutMs: int('timeout-ms'),
    maxMemoryMb: int('max-memory-mb'),
  };
}

const ENGINES = ['pdfium', 'pdf-parse'] as const;
type Engine = (typeof ENGINES)[number];

interface QuireRun {
  ok: boolean;
  code?: string;
  pages: number;
  ms: number;
  childPeakMb: number;
  parentPeakMb: number;
  /** How much the parent's RSS rose during this extraction: what reading the child's result costs it. */
  parentGrowthMb: number;
}

/** One warm sandbox child per engine, started before anything is timed, as a worker keeps one per slot. */
async function startPools(o: Options): Promise<Record<Engine, SandboxPool>> {
  const poolFor = (engine: Engine) =>
    new SandboxPool({
      slots: 1,
      maxJobs: Number.MAX_SAFE_INTEGER,
      recycleRssMb: 512,
      // As a worker keeps by default (EXTRACT_SPARE_CHILDREN): a file that fails does not make the next wait.
      spares: 1,
      maxMemoryMb: o.maxMemoryMb,
      settings: benchSettings(engine),
      logger: { info() {}, warn() {}, debug() {} },
    });
  const pools = { pdfium: poolFor('pdfium'), 'pdf-parse': poolFor('pdf-parse') };
  await Promise.all(Object.values(pools).map((pool) => pool.start()));
  return pools;
}

/** The worker's path for one PDF: a job in a warm sandbox child with the pdf extractor, text only. */
async function extractWithQuire(
  pool: SandboxPool,
  engine: Engine,
  file: string,
  workDir: string,
  o: Options,
): Promise<QuireRun & { text: string }> {
  const outputDir = path.join(workDir, 'out');
  await fs.rm(workDir, { recursive: true, force: true });
  await fs.mkdir(outputDir, { recursive: true });
  const parentBefore = process.memoryUsage.rss();
  let parentPeak = parentBefore;
  const poll = setInterval(() => (parentPeak = Math.max(parentPeak, process.memoryUsage.rss())), PARENT_POLL_MS);
  const started = performance.now();
  const outcome = await pool.run(
    textOnlySpec('pdf', file, outputDir),
    { timeoutMs: o.timeoutMs, maxMemoryMb: o.maxMemoryMb },
    () => {},
  );
  const ms = performance.now() - started;
  clearInterval(poll);
  parentPeak = Math.max(parentPeak, process.memoryUsage.rss());
  return {
    ok: outcome.ok,
    ...(outcome.ok ? {} : { code: outcome.code }),
    pages: outcome.ok ? Number(outcome.result.metadata.pageCount ?? 0) : 0,
    ms,
    childPeakMb: outcome.peakRssMb,
    parentPeakMb: parentPeak / 1024 ** 2,
    parentGrowthMb: (parentPeak - parentBefore) / 1024 ** 2,
    text: outcome.ok ? outcome.result.text : '',
  };
}

/** `pdftotext FILE /dev/null`, timed from spawn to exit, under the same time budget as quire. */
function extractWithPdftotext(file: string, timeoutMs: number): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('pdftotext', ['-q', file, '/dev/null'], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', () => resolve({ ok: false, ms: performance.now() - started }));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, ms: performance.now() - started });
    });
  });
}

/** pdftotext's text of the file (untimed): the reference the engines' words are scored against. */
function pdftotextText(file: string, timeoutMs: number): string | undefined {
  const run = spawnSync('pdftotext', ['-q', '-enc', 'UTF-8', file, '-'], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 256 * 1024 ** 2,
  });
  return run.status === 0 ? run.stdout : undefined;
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Word-level F1 of `text` against `reference`: words counted with repeats, order ignored (layout differs
 * between engines; what matters is that every word is there once and nothing else is). Undefined without a
 * reference to score against.
 */
function wordF1(text: string, reference: string | undefined): number | undefined {
  if (reference === undefined) return undefined;
  const expected = words(reference);
  const found = words(text);
  if (expected.length === 0) return found.length === 0 ? undefined : 0;
  const counts = new Map<string, number>();
  for (const word of expected) counts.set(word, (counts.get(word) ?? 0) + 1);
  let common = 0;
  for (const word of found) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      common++;
      counts.set(word, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / found.length;
  const recall = common / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

function pdftotextVersion(): string | undefined {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  if (probe.error) return undefined;
  return /pdftotext version (\S+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1] ?? 'unknown version';
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const perSecond = (pages: number, ms: number) => (ms > 0 ? round((pages * 1000) / ms) : 0);

interface FileRow {
  file: string;
  quire: QuireRun;
  pdftotext?: { ok: boolean; ms: number };
}

interface CorpusFile {
  file: string;
  engines: Record<Engine, QuireRun & { f1?: number }>;
  pdftotext?: { ok: boolean; ms: number };
}

const asRows = (files: CorpusFile[], engine: Engine): FileRow[] =>
  files.map((f) => ({ file: f.file, quire: f.engines[engine], ...(f.pdftotext ? { pdftotext: f.pdftotext } : {}) }));

function f1Summary(files: CorpusFile[], engine: Engine) {
  const scores = files.map((f) => f.engines[engine].f1).filter((f): f is number => f !== undefined);
  return scores.length > 0
    ? {
        files: scores.length,
        median: round(median(scores), 4),
        mean: round(scores.reduce((a, b) => a + b, 0) / scores.length, 4),
      }
    : undefined;
}

function totals(rows: FileRow[]) {
  const extracted = rows.filter((r) => r.quire.ok);
  const pages = extracted.reduce((sum, r) => sum + r.quire.pages, 0);
  const quireMs = extracted.reduce((sum, r) => sum + r.quire.ms, 0);
  const popplerRows = extracted.filter((r) => r.pdftotext?.ok);
  const popplerMs = popplerRows.reduce((sum, r) => sum + r.pdftotext!.ms, 0);
  const popplerPages = popplerRows.reduce((sum, r) => sum + r.quire.pages, 0);
  return {
    files: rows.length,
    ok: extracted.length,
    failed: Object.fromEntries(
      [...new Set(rows.filter((r) => !r.quire.ok).map((r) => r.quire.code!))].map((code) => [
        code,
        rows.filter((r) => r.quire.code === code).length,
      ]),
    ),
    pages,
    quireSeconds: round(quireMs / 1000, 2),
    quirePagesPerSecond: perSecond(pages, quireMs),
    ...(popplerRows.length > 0
      ? {
          pdftotextSeconds: round(popplerMs / 1000, 2),
          pdftotextPagesPerSecond: perSecond(popplerPages, popplerMs),
          ratio: round(perSecond(pages, quireMs) / perSecond(popplerPages, popplerMs), 3),
        }
      : {}),
    // Every file, failures and timeouts included: the wall time the worker would spend on this set.
    quireSecondsAllFiles: round(rows.reduce((sum, r) => sum + r.quire.ms, 0) / 1000, 2),
    pdftotextSecondsAllFiles: round(rows.reduce((sum, r) => sum + (r.pdftotext?.ms ?? 0), 0) / 1000, 2),
    childPeakRssMb: round(Math.max(0, ...rows.map((r) => r.quire.childPeakMb))),
    childPeakRssMbOfExtracted: round(Math.max(0, ...extracted.map((r) => r.quire.childPeakMb))),
    parentPeakRssMb: round(Math.max(0, ...rows.map((r) => r.quire.parentPeakMb))),
    parentGrowthMb: round(Math.max(0, ...rows.map((r) => r.quire.parentGrowthMb))),
  };
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const poppler = pdftotextVersion();
  if (!poppler) {
    console.log(
      'pdftotext is not installed: quire is measured alone. For the comparison: apt-get install poppler-utils',
    );
  }
  const corpusFiles = (await fs.readdir(o.corpus).catch(() => [] as string[]))
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort();
  if (corpusFiles.length === 0)
    console.log(`no PDFs in ${o.corpus}: only the generated book is measured (--corpus DIR)`);
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-pdf-'));
  const pools = await startPools(o);
  try {
    const bookPath = path.join(workDir, 'book.pdf');
    const book = await makeBookPdf(o.pages);
    await fs.writeFile(bookPath, book.pdf);
    console.log(
      `pdf benchmark: ${corpusFiles.length} corpus PDFs from ${o.corpus}, then a generated ${o.pages}-page book ` +
        `(${round(book.pdf.length / 1024 ** 2)} MB, ${book.fonts}) ${o.repeat} times, each through a warm sandbox ` +
        `child per engine (${ENGINES.join(', ')}); pdftotext ${poppler ?? 'absent'}`,
    );

    // One file at a time, each engine then pdftotext on the same file, as they would see the same machine.
    const corpus: CorpusFile[] = [];
    for (const [i, name] of corpusFiles.entries()) {
      const file = path.join(o.corpus, name);
      const reference = poppler ? pdftotextText(file, o.timeoutMs) : undefined;
      const engines = {} as CorpusFile['engines'];
      for (const engine of ENGINES) {
        const { text, ...measured } = await extractWithQuire(pools[engine], engine, file, path.join(workDir, 'job'), o);
        const f1 = measured.ok ? wordF1(text, reference) : undefined;
        engines[engine] = { ...measured, ...(f1 !== undefined ? { f1: round(f1, 4) } : {}) };
        if (measured.code === 'TIMEOUT')
          console.log(`  ${name} (${engine}): TIMEOUT after ${round(measured.ms / 1000)} s`);
      }
      const pdftotext = poppler ? await extractWithPdftotext(file, o.timeoutMs) : undefined;
      corpus.push({ file: name, engines, ...(pdftotext ? { pdftotext } : {}) });
      if ((i + 1) % 20 === 0)
        console.log(`  ${i + 1}/${corpusFiles.length} corpus files (${round((performance.now() - began) / 1000)} s)`);
    }

    const bookRows = {} as Record<Engine, ReturnType<typeof bookSummary>>;
    const bookRuns = {} as Record<Engine, FileRow[]>;
    for (const engine of ENGINES) bookRuns[engine] = [];
    // Interleaved, so that a burst of load from elsewhere falls on every engine alike.
    for (let i = 0; i < o.repeat; i++) {
      for (const engine of ENGINES) {
        const { text: _text, ...quire } = await extractWithQuire(
          pools[engine],
          engine,
          bookPath,
          path.join(workDir, 'job'),
          o,
        );
        const pdftotext = poppler ? await extractWithPdftotext(bookPath, o.timeoutMs) : undefined;
        bookRuns[engine].push({ file: 'book.pdf', quire, ...(pdftotext ? { pdftotext } : {}) });
      }
    }
    for (const engine of ENGINES) bookRows[engine] = bookSummary(bookRuns[engine], poppler !== undefined);

    const row = (
      set: string,
      t: ReturnType<typeof totals> | ReturnType<typeof bookSummary>,
      files: string,
      seconds: { quire: number; poppler?: number },
      f1?: number,
    ) => ({
      set,
      files,
      pages: t.pages,
      'quire s': seconds.quire,
      'quire p/s': t.quirePagesPerSecond,
      'pdftotext s': seconds.poppler ?? '-',
      'pdftotext p/s': t.pdftotextPagesPerSecond ?? '-',
      ratio: t.ratio ?? '-',
      'F1 median': f1 ?? '-',
      'child peak MB': t.childPeakRssMb,
      'parent peak MB': t.parentPeakRssMb,
      'parent +MB': t.parentGrowthMb,
    });
    const corpusTotals = Object.fromEntries(
      ENGINES.map((engine) => [engine, totals(asRows(corpus, engine))]),
    ) as Record<Engine, ReturnType<typeof totals>>;
    const f1 = Object.fromEntries(ENGINES.map((engine) => [engine, f1Summary(corpus, engine)]));
    console.log('');
    printTable([
      ...ENGINES.map((engine) =>
        row(
          `corpus, ${engine}`,
          corpusTotals[engine],
          `${corpusTotals[engine].ok}/${corpusTotals[engine].files}`,
          {
            quire: corpusTotals[engine].quireSecondsAllFiles,
            poppler: corpusTotals[engine].pdftotextSecondsAllFiles,
          },
          f1[engine]?.median,
        ),
      ),
      ...ENGINES.map((engine) =>
        row(`book, ${engine}, median of ${o.repeat}`, bookRows[engine], bookRows[engine].ok ? '1/1' : '0/1', {
          quire: bookRows[engine].quireSeconds,
          poppler: bookRows[engine].pdftotextSeconds,
        }),
      ),
    ]);
    console.log(
      '\npages/s count the pages of the files quire extracted, over the time spent on those files; "s" is every file, failures included.' +
        "\nF1: word-level F1 of each file's text against pdftotext's, median over the files pdftotext reads words from." +
        ENGINES.map((engine) => `\ncorpus failures (${engine}): ${JSON.stringify(corpusTotals[engine].failed)}`).join(
          '',
        ),
    );

    const summary = {
      benchmark: 'pdf',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      pdftotext: poppler ?? null,
      options: o,
      measuredThrough:
        "SandboxPool (the worker's warm sandbox child, one per engine, started before timing) with the pdf extractor, " +
        'extractImages false, one file at a time; wall time from the job sent to its result. pdftotext -q FILE /dev/null ' +
        "right after, on the same file. F1: words (letters and digits, lower-cased, with repeats) of each engine's text " +
        "against pdftotext's text of the same file. Child peak: the sandbox's own per-job figure; parent peak: this " +
        "process's RSS polled every 50 ms during the extraction (the benchmark process stands in for the worker).",
      f1,
      book: Object.fromEntries(
        ENGINES.map((engine) => [
          engine,
          {
            ...bookRows[engine],
            fonts: book.fonts,
            megabytes: round(book.pdf.length / 1024 ** 2, 2),
            runs: bookRuns[engine],
          },
        ]),
      ),
      corpus: { totals: corpusTotals, files: corpus },
      totalSeconds: round((performance.now() - began) / 1000),
    };
    await reportWritten('pdf', summary, loadBefore);
  } finally {
    await Promise.all(Object.values(pools).map((pool) => pool.close()));
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

function bookSummary(runs: FileRow[], withPoppler: boolean) {
  const quireMs = median(runs.map((r) => r.quire.ms));
  const popplerMs = withPoppler ? median(runs.map((r) => r.pdftotext!.ms)) : undefined;
  const pages = runs[0]!.quire.pages;
  return {
    pages,
    ok: runs.every((r) => r.quire.ok),
    quireSeconds: round(quireMs / 1000, 2),
    quirePagesPerSecond: perSecond(pages, quireMs),
    ...(popplerMs !== undefined
      ? {
          pdftotextSeconds: round(popplerMs / 1000, 2),
          pdftotextPagesPerSecond: perSecond(pages, popplerMs),
          ratio: round(perSecond(pages, quireMs) / perSecond(pages, popplerMs), 3),
        }
      : {}),
    childPeakRssMb: round(Math.max(...runs.map((r) => r.quire.childPeakMb))),
    parentPeakRssMb: round(Math.max(...runs.map((r) => r.quire.parentPeakMb))),
    parentGrowthMb: round(Math.max(...runs.map((r) => r.quire.parentGrowthMb))),
  };
}

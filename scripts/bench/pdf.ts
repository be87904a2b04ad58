import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runSandboxed } from '../../apps/worker/src/sandbox/run-sandboxed.ts';
import { makeBookPdf } from './pdf-book.ts';
import { textOnlySpec } from './sandbox-spec.ts';
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

/** The worker's path for one PDF: the sandboxed child process and the pdf extractor, text only. */
async function extractWithQuire(file: string, workDir: string, o: Options): Promise<QuireRun> {
  const outputDir = path.join(workDir, 'out');
  await fs.rm(workDir, { recursive: true, force: true });
  await fs.mkdir(outputDir, { recursive: true });
  const parentBefore = process.memoryUsage.rss();
  let parentPeak = parentBefore;
  const poll = setInterval(() => (parentPeak = Math.max(parentPeak, process.memoryUsage.rss())), PARENT_POLL_MS);
  const started = performance.now();
  const outcome = await runSandboxed(
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
  try {
    const bookPath = path.join(workDir, 'book.pdf');
    const book = await makeBookPdf(o.pages);
    await fs.writeFile(bookPath, book.pdf);
    console.log(
      `pdf benchmark: ${corpusFiles.length} corpus PDFs from ${o.corpus}, then a generated ${o.pages}-page book ` +
        `(${round(book.pdf.length / 1024 ** 2)} MB, ${book.fonts}) ${o.repeat} times; pdftotext ${poppler ?? 'absent'}`,
    );

    // One file at a time, quire then pdftotext on the same file, as the two would see the same machine.
    const corpus: FileRow[] = [];
    for (const [i, name] of corpusFiles.entries()) {
      const file = path.join(o.corpus, name);
      const quire = await extractWithQuire(file, path.join(workDir, 'job'), o);
      const pdftotext = poppler ? await extractWithPdftotext(file, o.timeoutMs) : undefined;
      corpus.push({ file: name, quire, ...(pdftotext ? { pdftotext } : {}) });
      if (!quire.ok && quire.code === 'TIMEOUT') console.log(`  ${name}: TIMEOUT after ${round(quire.ms / 1000)} s`);
      if ((i + 1) % 20 === 0)
        console.log(`  ${i + 1}/${corpusFiles.length} corpus files (${round((performance.now() - began) / 1000)} s)`);
    }

    const bookRuns: FileRow[] = [];
    for (let i = 0; i < o.repeat; i++) {
      const quire = await extractWithQuire(bookPath, path.join(workDir, 'job'), o);
      const pdftotext = poppler ? await extractWithPdftotext(bookPath, o.timeoutMs) : undefined;
      bookRuns.push({ file: 'book.pdf', quire, ...(pdftotext ? { pdftotext } : {}) });
    }
    const bookQuireMs = median(bookRuns.map((r) => r.quire.ms));
    const bookPopplerMs = poppler ? median(bookRuns.map((r) => r.pdftotext!.ms)) : undefined;
    const bookPages = bookRuns[0]!.quire.pages;
    const bookRow = {
      pages: bookPages,
      ok: bookRuns.every((r) => r.quire.ok),
      quireSeconds: round(bookQuireMs / 1000, 2),
      quirePagesPerSecond: perSecond(bookPages, bookQuireMs),
      ...(bookPopplerMs !== undefined
        ? {
            pdftotextSeconds: round(bookPopplerMs / 1000, 2),
            pdftotextPagesPerSecond: perSecond(bookPages, bookPopplerMs),
            ratio: round(perSecond(bookPages, bookQuireMs) / perSecond(bookPages, bookPopplerMs), 3),
          }
        : {}),
      childPeakRssMb: round(Math.max(...bookRuns.map((r) => r.quire.childPeakMb))),
      parentPeakRssMb: round(Math.max(...bookRuns.map((r) => r.quire.parentPeakMb))),
      parentGrowthMb: round(Math.max(...bookRuns.map((r) => r.quire.parentGrowthMb))),
    };
    const timedOut = corpus.filter((r) => r.quire.code === 'TIMEOUT');
    const corpusAll = totals(corpus);
    const corpusWithoutTimeouts = totals(corpus.filter((r) => r.quire.code !== 'TIMEOUT'));

    const row = (
      set: string,
      t: ReturnType<typeof totals> | typeof bookRow,
      files: string,
      seconds: { quire: number; poppler?: number },
    ) => ({
      set,
      files,
      pages: t.pages,
      'quire s': seconds.quire,
      'quire p/s': t.quirePagesPerSecond,
      'pdftotext s': seconds.poppler ?? '-',
      'pdftotext p/s': t.pdftotextPagesPerSecond ?? '-',
      ratio: t.ratio ?? '-',
      'child peak MB': t.childPeakRssMb,
      'parent peak MB': t.parentPeakRssMb,
      'parent +MB': t.parentGrowthMb,
    });
    console.log('');
    printTable([
      row('corpus, all files', corpusAll, `${corpusAll.ok}/${corpusAll.files}`, {
        quire: corpusAll.quireSecondsAllFiles,
        poppler: corpusAll.pdftotextSecondsAllFiles,
      }),
      ...(timedOut.length > 0
        ? [
            row(
              'corpus, no timeouts',
              corpusWithoutTimeouts,
              `${corpusWithoutTimeouts.ok}/${corpusWithoutTimeouts.files}`,
              {
                quire: corpusWithoutTimeouts.quireSecondsAllFiles,
                poppler: corpusWithoutTimeouts.pdftotextSecondsAllFiles,
              },
            ),
          ]
        : []),
      row(`book, median of ${o.repeat}`, bookRow, bookRow.ok ? '1/1' : '0/1', {
        quire: bookRow.quireSeconds,
        poppler: bookRow.pdftotextSeconds,
      }),
    ]);
    console.log(
      '\npages/s count the pages of the files quire extracted, over the time spent on those files; "s" is every file, failures included.' +
        `\ncorpus failures: ${JSON.stringify(corpusAll.failed)}${timedOut.length ? `; timeouts (${o.timeoutMs} ms budget): ${timedOut.map((r) => r.file).join(', ')}` : ''}` +
        `\nchild peak of the files extracted: ${corpusAll.childPeakRssMbOfExtracted} MB`,
    );

    const summary = {
      benchmark: 'pdf',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      pdftotext: poppler ?? null,
      options: o,
      measuredThrough:
        "runSandboxed (the worker's disposable child process) with the pdf extractor, extractImages false, one file at a time; " +
        'wall time from spawn to result, child start-up included. pdftotext -q FILE /dev/null right after, on the same file. ' +
        "Child peak: the sandbox's own figure; parent peak: this process's RSS polled every 50 ms during the extraction " +
        '(the benchmark process stands in for the worker; parent growth: the rise during one extraction).',
      book: {
        ...bookRow,
        fonts: book.fonts,
        megabytes: round(book.pdf.length / 1024 ** 2, 2),
        runs: bookRuns.map((r) => ({ quire: r.quire, pdftotext: r.pdftotext })),
      },
      corpus: { all: corpusAll, withoutTimeouts: corpusWithoutTimeouts, files: corpus },
      totalSeconds: round((performance.now() - began) / 1000),
    };
    await reportWritten('pdf', summary, loadBefore);
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

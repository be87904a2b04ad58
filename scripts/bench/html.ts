import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { loadConfig } from '@quire/config';
import { normalizeText } from '@quire/extract';
import { htmlToText } from '../../packages/extract/src/html-text.ts';
import { extractTextFile } from '../../packages/extract/src/text.ts';
import { budgetFor } from '../../apps/worker/src/processors/budget.ts';
import { oneOffSandbox } from '../../apps/worker/src/sandbox/run-sandboxed.ts';
import { figures, PUBLISHED, scoreEvalSet, sum, worstPages, EVAL_DIR, type PageScore } from './html-eval.ts';
import { benchSettings, textOnlySpec } from './sandbox-spec.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';
import { shingleScore, type ShingleScore } from './shingles.ts';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'html-data');

const SETS = ['all', 'written', 'web-eval'] as const;

interface Options {
  /** `written`: the 15 pages written for this benchmark and the big page; `web-eval`: trafilatura's 990 pages. */
  set: (typeof SETS)[number];
  /** Which thirds of the 990 pages to score (by a hash of the URL): `0,1` to tune on, `2` held out. */
  thirds?: number[];
  data: string;
  bigMb: number;
  bigNodes: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      set: { type: 'string', default: 'all' },
      thirds: { type: 'string' },
      data: { type: 'string', default: DATA },
      'big-mb': { type: 'string', default: '20' },
      'big-nodes': { type: 'string', default: '100000' },
    },
  });
  const set = SETS.find((s) => s === values.set);
  if (!set) throw new Error(`--set must be one of ${SETS.join(', ')}`);
  const thirds = values.thirds?.split(',').map(Number);
  if (thirds?.some((t) => ![0, 1, 2].includes(t))) throw new Error('--thirds lists 0, 1 or 2, comma-separated');
  return {
    set,
    ...(thirds ? { thirds } : {}),
    data: values.data,
    bigMb: positiveInt(values['big-mb'], 'big-mb'),
    bigNodes: positiveInt(values['big-nodes'], 'big-nodes'),
  };
}

interface PageRow {
  page: string;
  before: ShingleScore;
  readability: ShingleScore;
  after: ShingleScore;
  extraction: string;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Mean precision and recall over pages, F1 of the two means: how the article-extraction benchmarks report it. */
function overall(scores: ShingleScore[]) {
  const precision = scores.reduce((sum, s) => sum + s.precision, 0) / scores.length;
  const recall = scores.reduce((sum, s) => sum + s.recall, 0) / scores.length;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision: round(precision), recall: round(recall), f1: round(f1) };
}

/** Each page through today's extractor and the one that replaced it, scored against its hand-marked article text. */
async function scorePages(dir: string): Promise<PageRow[]> {
  const pages = (await fs.readdir(dir)).filter((f) => f.endsWith('.html')).sort();
  if (pages.length === 0) throw new Error(`no .html pages in ${dir}`);
  const rows: PageRow[] = [];
  for (const page of pages) {
    const file = path.join(dir, page);
    const gold = await fs.readFile(file.replace(/\.html$/, '.txt'), 'utf8');
    const before = normalizeText(htmlToText(await fs.readFile(file, 'utf8')).text);
    const after = await extractTextFile(file, { extractImages: false, outputDir: os.tmpdir() });
    const readability = normalizeText(readabilityAlone(await fs.readFile(file, 'utf8')));
    rows.push({
      page,
      before: shingleScore(before, gold),
      readability: shingleScore(readability, gold),
      after: shingleScore(after.text, gold),
      extraction: String(after.metadata.extraction),
    });
  }
  return rows;
}

/** Readability's article as it comes, in the same text layout, with the same fallback: what quire adds on top is measured against this. */
function readabilityAlone(html: string): string {
  const article = new Readability(parseHTML(html).document).parse();
  return article?.content && (article.textContent?.trim().length ?? 0) >= 500
    ? htmlToText(article.content).text
    : htmlToText(html).text;
}

/**
 * A page of `megabytes` with `nodes` elements: a long article of sections and paragraphs inside the usual
 * header, menus and footer, so Readability has to score all of it.
 */
export function bigPage(megabytes: number, nodes: number): string {
  const parts = ['<!doctype html><html lang="en"><head><title>A very long page</title></head><body>'];
  parts.push(
    '<div class="header"><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></div><article><h1>A very long page</h1>',
  );
  // Each section is 5 elements: a div, an h2, and three paragraphs.
  const sections = Math.max(1, Math.floor(nodes / 5));
  const perParagraph = Math.max(1, Math.floor((megabytes * 1024 * 1024) / (sections * 3)) - 20);
  const words = 'the tide rises and falls twice a day because the moon pulls harder on the near side '.repeat(
    Math.ceil(perParagraph / 80) + 1,
  );
  for (let i = 0; i < sections; i++) {
    const paragraph = `<p>${i} ${words.slice(0, perParagraph)}</p>`;
    parts.push(`<div><h2>Section ${i}</h2>${paragraph}${paragraph}${paragraph}</div>`);
  }
  parts.push('</article><div class="footer">Copyright, terms and privacy</div></body></html>');
  return parts.join('');
}

/** The worker's own path for a huge page: the sandboxed child under the budget the worker would grant it. */
async function runBigPage(o: Options) {
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-html-'));
  try {
    const inputPath = path.join(workDir, 'input');
    const html = bigPage(o.bigMb, o.bigNodes);
    await fs.writeFile(inputPath, html);
    const bytes = Buffer.byteLength(html);
    const limits = budgetFor('text', bytes, loadConfig({}));
    await fs.mkdir(path.join(workDir, 'out'));
    const started = performance.now();
    const outcome = await oneOffSandbox(benchSettings())(
      textOnlySpec('text', inputPath, path.join(workDir, 'out')),
      limits,
      () => {},
    );
    return {
      megabytes: round(bytes / 1024 ** 2, 1),
      elements: o.bigNodes,
      ok: outcome.ok,
      ...(outcome.ok
        ? { extraction: outcome.result.metadata.extraction, textMb: round(outcome.result.text.length / 1024 ** 2, 1) }
        : { code: outcome.code, message: outcome.message }),
      seconds: round((performance.now() - started) / 1000, 1),
      budgetSeconds: limits.timeoutMs / 1000,
      childPeakRssMb: Math.round(outcome.peakRssMb),
      memoryLimitMb: limits.maxMemoryMb,
    };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const summary: Record<string, unknown> = {
    benchmark: 'html',
    date: new Date().toISOString(),
    machine: { ...machine(), loadAverageBefore: loadBefore },
    options: o,
  };
  if (o.set !== 'written') summary.webEval = await runWebEval(o);
  if (o.set !== 'web-eval') Object.assign(summary, await runWritten(o));
  const totalSeconds = round((performance.now() - began) / 1000, 1);
  await reportWritten('html', { ...summary, totalSeconds }, loadBefore);
}

/** trafilatura's 990 pages scored by its own rule, next to its published table; every page's misses kept in the results. */
async function runWebEval(o: Options) {
  const started = performance.now();
  const pages = await scoreEvalSet(EVAL_DIR, o.thirds);
  const seconds = round((performance.now() - started) / 1000, 1);
  const row = (extractor: string, of: PageScore[]) => ({ extractor, pages: of.length, ...figures(sum(of)) });
  const byThird = [0, 1, 2]
    .map((t) => pages.filter((p) => p.third === t))
    .filter((of) => of.length > 0)
    .map((of) => row(`quire, third ${of[0]!.third}`, of));
  console.log(
    `web-eval: ${pages.length} pages of trafilatura's evaluation set, raw bytes through the text extractor (${seconds} s); ` +
      'a `with` segment in the text is a true positive, a `without` segment a false positive\n',
  );
  printTable([
    row('quire (this run)', pages),
    ...byThird,
    ...PUBLISHED.map((p) => ({ ...p, pages: 990 })).map(({ extractor, pages: n, ...f }) => ({
      extractor,
      pages: n,
      ...f,
    })),
  ]);
  const errors = pages.filter((p) => p.error);
  const fallbacks = pages.filter((p) => p.extraction === 'whole-page');
  console.log(`\n${errors.length} pages refused or failed, ${fallbacks.length} kept whole (no article found)`);
  console.log('\nthe ten pages that lose most (segments missed + boilerplate kept):');
  printTable(
    worstPages(pages, 10).map((p) => ({
      file: p.file,
      missed: `${p.fn}/${p.fn + p.tp}`,
      kept: `${p.fp}/${p.fp + p.tn}`,
      extraction: p.error ? `error: ${p.error}` : (p.extraction ?? ''),
    })),
  );
  return {
    ...figures(sum(pages)),
    counts: sum(pages),
    byThird,
    published: PUBLISHED,
    seconds,
    errors: errors.length,
    wholePage: fallbacks.length,
    pages,
  };
}

/** The 15 pages written for this benchmark, scored by word shingles, and one huge page through the sandbox. */
async function runWritten(o: Options) {
  const rows = await scorePages(o.data);
  console.log(
    `html benchmark: ${rows.length} labelled pages from ${o.data}, 4-word shingles against the marked article text\n`,
  );
  printTable(
    rows.map((r) => ({
      page: r.page,
      'before P': round(r.before.precision),
      'before R': round(r.before.recall),
      'before F1': round(r.before.f1),
      'Readability F1': round(r.readability.f1),
      'after P': round(r.after.precision),
      'after R': round(r.after.recall),
      'after F1': round(r.after.f1),
      extraction: r.extraction,
    })),
  );
  const before = overall(rows.map((r) => r.before));
  const readability = overall(rows.map((r) => r.readability));
  const after = overall(rows.map((r) => r.after));
  console.log('');
  printTable([
    { extractor: 'before: whole page', ...before },
    { extractor: 'Readability alone', ...readability },
    { extractor: 'after: main content', ...after },
  ]);

  console.log(
    `\n${o.bigMb} MB page with ${o.bigNodes} elements through the sandbox, under the worker's budget for its size:`,
  );
  const big = await runBigPage(o);
  printTable([Object.fromEntries(Object.entries(big).map(([k, v]) => [k, String(v)]))]);

  return {
    measuredThrough:
      'before: the whole-page text the text extractor kept until extractor version 3 (html-to-text without nav, scripts and styles), normalised as the extractor does; ' +
      'Readability alone: its article through the same html-to-text layout, the whole page under 500 characters; ' +
      'after: the text extractor itself (extractTextFile) on each page file. Scores: multisets of 4-word shingles of lower-cased words, per page, ' +
      'then the mean precision and recall over pages and the F1 of those means. The big page runs through a one-off sandbox with budgetFor(text, size) of the default config.',
    before,
    readability,
    after,
    pages: rows,
    bigPage: big,
  };
}

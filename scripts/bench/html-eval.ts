import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { sniff, SNIFF_BYTES } from '@quire/extract';
import { extractTextFile } from '../../packages/extract/src/text.ts';

/** trafilatura's evaluation set (990 pages, Apache-2.0), copied in with its README and licence. */
export const EVAL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/web-eval');

/** The figures trafilatura's documentation publishes for this set, which quire's are put next to. */
export const PUBLISHED = [
  { extractor: 'trafilatura 2.2.0 (standard)', precision: 0.906, recall: 0.943, accuracy: 0.923, f: 0.924 },
  { extractor: 'trafilatura 2.2.0 (precision)', precision: 0.925, recall: 0.915, accuracy: 0.921, f: 0.92 },
  { extractor: 'magic-html 0.1.8', precision: 0.887, recall: 0.891, accuracy: 0.889, f: 0.889 },
  { extractor: 'justext 3.0.2 (custom)', precision: 0.864, recall: 0.859, accuracy: 0.862, f: 0.862 },
  { extractor: 'news-please 1.6.16', precision: 0.932, recall: 0.758, accuracy: 0.852, f: 0.836 },
  { extractor: 'readability-lxml 0.8.4.1', precision: 0.898, recall: 0.764, accuracy: 0.839, f: 0.826 },
  { extractor: 'baseline (text markup)', precision: 0.767, recall: 0.869, accuracy: 0.803, f: 0.815 },
  { extractor: 'goose3 3.1.22', precision: 0.936, recall: 0.714, accuracy: 0.833, f: 0.81 },
  { extractor: 'raw HTML', precision: 0.528, recall: 0.906, accuracy: 0.549, f: 0.667 },
];

interface EvalItem {
  file: string;
  with: string[];
  without: string[];
}

export interface Counts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface PageScore extends Counts {
  url: string;
  file: string;
  /** Which third of the set the page is in, by a hash of its URL: rules are tuned on 0 and 1, checked on 2. */
  third: number;
  extraction?: string;
  encoding?: string;
  error?: string;
  /** `with` segments not found: text lost. */
  missed: string[];
  /** `without` segments found: boilerplate kept. */
  kept: string[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Precision, recall, accuracy and F from counts summed over pages, as trafilatura's `tests/evaluate.py` computes them. */
export function figures(c: Counts) {
  const precision = c.tp / (c.tp + c.fp);
  const recall = c.tp / (c.tp + c.fn);
  return {
    precision: round(precision),
    recall: round(recall),
    accuracy: round((c.tp + c.tn) / (c.tp + c.tn + c.fp + c.fn)),
    f: round((2 * precision * recall) / (precision + recall)),
  };
}

export function sum(pages: Counts[]): Counts {
  const total = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (const p of pages) for (const k of ['tp', 'fp', 'tn', 'fn'] as const) total[k] += p[k];
  return total;
}

/** A stable third for each URL (FNV-1a), so the held-out pages stay the same from run to run. */
export function thirdOf(url: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) hash = Math.imul(hash ^ url.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 3;
}

/** One page scored: its raw bytes through the text extractor as the worker runs it (the worker refuses what sniff refuses). */
async function scorePage(url: string, item: EvalItem, bytes: Buffer, workDir: string): Promise<PageScore> {
  const page: PageScore = {
    url,
    file: item.file,
    third: thirdOf(url),
    tp: 0,
    fp: 0,
    tn: 0,
    fn: 0,
    missed: [],
    kept: [],
  };
  let text = '';
  const sniffed = await sniff(bytes.subarray(0, SNIFF_BYTES));
  if (!sniffed.supported) page.error = sniffed.reason;
  else {
    const input = path.join(workDir, 'input');
    await fs.writeFile(input, bytes);
    try {
      const result = await extractTextFile(input, { extractImages: false, outputDir: workDir, sourceUrl: url });
      text = result.text;
      page.extraction = String(result.metadata.extraction ?? result.metadata.format);
      if (result.metadata.encoding) page.encoding = String(result.metadata.encoding);
    } catch (err) {
      page.error = (err as Error).message;
    }
  }
  for (const segment of item.with) {
    if (text.includes(segment)) page.tp++;
    else {
      page.fn++;
      page.missed.push(segment);
    }
  }
  for (const segment of item.without) {
    if (text.includes(segment)) {
      page.fp++;
      page.kept.push(segment);
    } else page.tn++;
  }
  return page;
}

/** Every page of the set scored; `only` limits it to some thirds. */
export async function scoreEvalSet(dir = EVAL_DIR, only?: number[]): Promise<PageScore[]> {
  const data = JSON.parse(await fs.readFile(path.join(dir, 'evaldata.json'), 'utf8')) as Record<string, EvalItem>;
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-web-eval-'));
  try {
    const pages: PageScore[] = [];
    for (const [url, item] of Object.entries(data)) {
      if (only && !only.includes(thirdOf(url))) continue;
      const bytes = gunzipSync(await fs.readFile(path.join(dir, 'html', `${item.file}.gz`)));
      pages.push(await scorePage(url, item, bytes, workDir));
    }
    return pages;
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

/** The pages that cost most: segments lost plus boilerplate kept. */
export function worstPages(pages: PageScore[], count: number): PageScore[] {
  return [...pages].sort((a, b) => b.fn + b.fp - (a.fn + a.fp) || a.url.localeCompare(b.url)).slice(0, count);
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench-results');

export interface LatencySummary {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentiles of millisecond samples. */
export function summarize(samplesMs: number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    samples: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    p99: round(rank(99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    max: round(sorted.at(-1)!),
  };
}

/** What the figures depend on besides the code: the machine and how busy it was. */
export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    totalMemoryGb: Math.round(os.totalmem() / 1024 ** 3),
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  };
}

/** Writes `bench-results/<name>-<timestamp>.json` and returns its path. */
export async function writeResults(name: string, results: unknown): Promise<string> {
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await fs.writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

export function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells: (string | number)[]) =>
    cells.map((cell, i) => String(cell).padStart(width(columns[i]!))).join('  ');
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((c) => row[c]!)));
}

/** A numeric command-line option that must be a whole number of at least 1. */
export function positiveInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}

/** Writes the results and closes the printout with how busy the machine was and where the JSON went. */
export async function reportWritten(
  name: string,
  summary: { totalSeconds: number },
  loadBefore: number[],
): Promise<void> {
  const { loadAverage, cpus } = machine();
  console.log(`\nload average before ${loadBefore.join(' ')}, after ${loadAverage.join(' ')} (${cpus} cores, shared)`);
  console.log(`written to ${await writeResults(name, summary)} (${summary.totalSeconds} s in all)`);
}

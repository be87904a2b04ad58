import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rssMb, spawnService } from '@quire/testkit/processes';
import getPort from 'get-port';
import { buildForBench, startBenchStack, stopProcess } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';
import { benchSettings } from './sandbox-spec.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Resident memory is read this long after ready, once start-up garbage has had a collection. */
const SETTLE_MS = 500;

interface Start {
  ms: number;
  rssMb: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** An api or worker process from spawn until it answers its health URL, and its RSS then. */
async function startService(
  kind: 'api' | 'worker',
  env: Record<string, string>,
  compiledDir: string | undefined,
): Promise<Start> {
  const port = await getPort();
  const settings: Record<string, string> =
    kind === 'api'
      ? { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}` }
      : { WORKER_METRICS_PORT: String(port), WORKER_CONCURRENCY: '1' };
  const started = performance.now();
  const service = spawnService(kind, { ...env, ...settings }, { compiledDir });
  try {
    const url = `http://127.0.0.1:${port}/${kind === 'api' ? 'readyz' : 'healthz'}`;
    for (;;) {
      if (service.child.exitCode !== null) throw new Error(`${kind} exited while starting:\n${service.output()}`);
      if (
        await fetch(url).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { ms, rssMb: await rssMb(service.child.pid!) };
  } finally {
    await stopProcess(service);
  }
}

/** A sandbox child from fork until it says it is ready (every extractor loaded, PDFium compiled), and its RSS then. */
async function startChild(entry: string): Promise<Start> {
  const started = performance.now();
  const child = fork(entry, [JSON.stringify(benchSettings())], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.on('message', (m: { type?: string }) => m?.type === 'ready' && resolve());
      child.once('exit', (code) => reject(new Error(`the child exited (${code}) before it was ready`)));
    });
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { ms, rssMb: await rssMb(child.pid!) };
  } finally {
    child.kill('SIGKILL');
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { repeat: { type: 'string', default: '5' } } });
  const repeat = positiveInt(values.repeat, 'repeat');
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  console.log(
    `startup benchmark: api, worker and sandbox child, TypeScript through tsx vs compiled, ${repeat} times each`,
  );
  const stack = await startBenchStack({ compiled: false });
  const compiledDir = await buildForBench();
  try {
    const subjects: Record<string, (compiled: boolean) => Promise<Start>> = {
      api: (compiled) => startService('api', stack.env, compiled ? compiledDir : undefined),
      worker: (compiled) => startService('worker', stack.env, compiled ? compiledDir : undefined),
      'sandbox child': (compiled) =>
        startChild(
          compiled
            ? path.join(compiledDir, 'sandbox-child.js')
            : path.join(ROOT, 'apps/worker/src/sandbox/child-entry.mjs'),
        ),
    };
    const rows = [];
    for (const [name, start] of Object.entries(subjects)) {
      const runs: Record<'tsx' | 'compiled', Start[]> = { tsx: [], compiled: [] };
      // Alternated, so that load from elsewhere falls on both alike.
      for (let i = 0; i < repeat; i++) {
        runs.tsx.push(await start(false));
        runs.compiled.push(await start(true));
      }
      const msTsx = median(runs.tsx.map((r) => r.ms));
      const msCompiled = median(runs.compiled.map((r) => r.ms));
      rows.push({
        process: name,
        'tsx ms': Math.round(msTsx),
        'compiled ms': Math.round(msCompiled),
        'start x faster': Math.round((msTsx / msCompiled) * 100) / 100,
        'tsx RSS MB': Math.round(median(runs.tsx.map((r) => r.rssMb))),
        'compiled RSS MB': Math.round(median(runs.compiled.map((r) => r.rssMb))),
      });
    }
    console.log('');
    printTable(rows);
    const summary = {
      benchmark: 'startup',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      measuredThrough:
        'median of the runs; api and worker: from spawn until /readyz (api) or /healthz (worker) answers 200, against ' +
        'an embedded Postgres and redis-server; sandbox child: from fork until its ready message (every extractor ' +
        `loaded, PDFium compiled). RSS: VmRSS ${SETTLE_MS} ms after ready. tsx: node --import tsx on the TypeScript ` +
        '(the child: child-entry.mjs); compiled: node on the output of npm run build.',
      results: rows,
      totalSeconds: Math.round((performance.now() - began) / 100) / 10,
    };
    await reportWritten('startup', summary, loadBefore);
  } finally {
    await fs.rm(compiledDir, { recursive: true, force: true });
    await stack.stop();
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ENTRIES = { api: 'apps/api/src/main.ts', worker: 'apps/worker/src/main.ts' } as const;

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs the real api or worker entry point as its own process, as production does: its TypeScript through tsx,
 * or, given `compiledDir` (the output of `scripts/build.mjs`), the compiled JavaScript with plain node.
 */
export function spawnService(
  kind: keyof typeof ENTRIES,
  env: Record<string, string>,
  options: { compiledDir?: string; netns?: string } = {},
): ServiceProcess {
  const entry = options.compiledDir
    ? [path.join(options.compiledDir, `${kind}.js`)]
    : ['--import', 'tsx', path.join(root, ENTRIES[kind])];
  return spawnLogged([process.execPath, ...entry], env, { netns: options.netns });
}

/**
 * Runs a command with its output kept (the last 64 KiB); given `netns`, inside that network namespace
 * (`ip netns exec` replaces itself with the command, so the child's pid is the command's).
 */
export function spawnLogged(
  argv: string[],
  env: Record<string, string>,
  options: { netns?: string; stdin?: 'pipe' | 'ignore' } = {},
): ServiceProcess {
  const [command, ...args] = options.netns ? ['ip', 'netns', 'exec', options.netns, ...argv] : argv;
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: env.LOG_LEVEL === 'silent' ? 'info' : (env.LOG_LEVEL ?? 'info') },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-64 * 1024);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** A worker process that has said it is taking jobs. */
export async function startWorkerProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const worker = spawnService('worker', env);
  await waitUntil(() => worker.output().includes('worker started'), 30_000, 'the worker to start');
  return worker;
}

export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until `url` answers 2xx (a service's /healthz or /readyz); refused connections count as not yet. */
export function waitForOk(url: string, timeoutMs: number, what: string): Promise<void> {
  return waitUntil(
    () =>
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
    timeoutMs,
    what,
  );
}

/** Resident memory of a running process, from /proc (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Running and not a zombie waiting to be reaped (a zombie runs no more). */
export async function isRunning(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** Every process below `root` (children, theirs, ...) with its command line, from /proc (Linux). */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  argv: string[];
}

export async function descendantsOf(root: number): Promise<ProcessEntry[]> {
  const all: ProcessEntry[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = (await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0');
    all.push({ pid: Number(entry), ppid, argv });
  }
  const found: ProcessEntry[] = [];
  const walk = (pid: number) => {
    for (const p of all) {
      if (p.ppid !== pid) continue;
      found.push(p);
      walk(p.pid);
    }
  };
  walk(root);
  return found;
}

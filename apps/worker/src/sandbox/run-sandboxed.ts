import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_PID_FILE } from './job-dirs.ts';
import { RESULT_FILE, type ChildMessage, type ChildReport, type SandboxOutcome, type SandboxSpec } from './protocol.ts';

const CHILD = fileURLToPath(new URL('./child-entry.mjs', import.meta.url));
const MEMORY_POLL_MS = 200;

export interface SandboxLimits {
  timeoutMs: number;
  maxMemoryMb: number;
  /** Added to `timeoutMs` per page once the child reports the page count, up to `maxTimeoutMs`. */
  perPageMs?: number;
  maxTimeoutMs?: number;
}

/**
 * Runs an extractor in a disposable child process with a wall-clock budget and a memory ceiling. The child
 * gets its own process group, so tools it spawns (ffmpeg, pocketsphinx) die with it. Never throws for
 * anything the file does; returns an outcome with an error code instead.
 */
export async function runSandboxed(
  spec: SandboxSpec,
  limits: SandboxLimits,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<SandboxOutcome & { peakRssMb: number }> {
  signal?.throwIfAborted();
  const specPath = path.join(path.dirname(spec.outputDir), 'spec.json');
  await fs.writeFile(specPath, JSON.stringify(spec));

  const child = fork(CHILD, [specPath], {
    execArgv: [`--max-old-space-size=${limits.maxMemoryMb}`],
    cwd: path.dirname(CHILD),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, UV_THREADPOOL_SIZE: '2' },
  });
  // For the next worker's start-up sweep, should this worker die without killing the child.
  if (child.pid) await fs.writeFile(path.join(path.dirname(spec.outputDir), SANDBOX_PID_FILE), String(child.pid));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  let overrun: 'TIMEOUT' | 'TOO_LARGE' | 'ABORTED' | undefined;
  let peakRssMb = 0;
  const kill = (reason: 'TIMEOUT' | 'TOO_LARGE' | 'ABORTED') => {
    overrun ??= reason;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const started = Date.now();
  let timeoutMs = limits.timeoutMs;
  let timer = setTimeout(() => kill('TIMEOUT'), timeoutMs);
  child.on('message', (msg: ChildMessage) => {
    if (msg?.type === 'progress') onProgress(msg.percent);
    if (msg?.type === 'pages' && limits.perPageMs) {
      // Computed from the base budget, so a repeated report cannot stretch it further.
      const extended = Math.min(
        limits.maxTimeoutMs ?? limits.timeoutMs,
        limits.timeoutMs + msg.count * limits.perPageMs,
      );
      if (extended <= timeoutMs) return;
      timeoutMs = extended;
      clearTimeout(timer);
      timer = setTimeout(() => kill('TIMEOUT'), started + timeoutMs - Date.now());
    }
  });

  const onAbort = () => kill('ABORTED');
  signal?.addEventListener('abort', onAbort);
  const memoryWatch = setInterval(async () => {
    const rssMb = await readRssMb(child.pid!);
    peakRssMb = Math.max(peakRssMb, rssMb);
    // The heap flag bounds JS memory; native buffers (pdf.js images, sharp) are caught here.
    if (rssMb > limits.maxMemoryMb * 1.25) kill('TOO_LARGE');
  }, MEMORY_POLL_MS);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  clearInterval(memoryWatch);
  signal?.removeEventListener('abort', onAbort);

  // Not the file's fault: the worker is shutting down and the job goes back to the queue.
  if (overrun === 'ABORTED') throw signal?.reason ?? new Error('extraction aborted');
  if (overrun === 'TIMEOUT') {
    return {
      ok: false,
      code: 'TIMEOUT',
      message: `Processing took longer than ${Math.round(timeoutMs / 1000)} s`,
      peakRssMb,
    };
  }
  if (overrun === 'TOO_LARGE' || /heap limit|out of memory/i.test(stderr)) {
    return {
      ok: false,
      code: 'TOO_LARGE',
      message: `Processing needed more than ${limits.maxMemoryMb} MB of memory`,
      peakRssMb,
    };
  }
  try {
    const report = JSON.parse(await fs.readFile(path.join(spec.outputDir, RESULT_FILE), 'utf8')) as ChildReport;
    return { ...report, peakRssMb: Math.max(peakRssMb, report.peakRssMb) };
  } catch {
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
    return { ok: false, code: 'CORRUPT', message: `The extractor stopped on this file (${how})`, peakRssMb };
  }
}

async function readRssMb(pid: number): Promise<number> {
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

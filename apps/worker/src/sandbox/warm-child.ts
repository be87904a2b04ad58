import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractedImage, ExtractorSettings, ExtractResult } from '@quire/extract';
import { SANDBOX_PID_FILE } from './job-dirs.ts';
import { removeOcrDirsOf } from './ocr-dirs.ts';
import { isSentFromOutside, KilledFromOutside } from './outside-kill.ts';
import {
  unpackResult,
  type ChildMessage,
  type ParentMessage,
  type SandboxOutcome,
  type SandboxSpec,
} from './protocol.ts';

const MEMORY_POLL_MS = 200;
/** After the images' share runs out, the child is given this long to stop by itself before it is killed. */
const IMAGES_GRACE_MS = 1_000;

/**
 * A worker compiled by `npm run build` (this module is then JavaScript in dist/) forks the compiled child beside
 * it with plain node; a worker run from its TypeScript (development, tests) forks the entry that turns tsx on.
 */
export const CHILD_ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith('.js') ? './sandbox-child.js' : './child-entry.mjs', import.meta.url),
);

export interface SandboxLimits {
  timeoutMs: number;
  maxMemoryMb: number;
  /** Added to `timeoutMs` per page once the child reports the page count, up to `maxTimeoutMs`. */
  perPageMs?: number;
  maxTimeoutMs?: number;
  /** Once the text is out, the share (0..1) of the budget its images may use; past it the text is kept. */
  imagesShare?: number;
}

export type JobOutcome = SandboxOutcome & { peakRssMb: number };

/**
 * One sandbox process: started once with every extractor loaded, then given one job at a time. Each job keeps
 * the limits a disposable child had: a wall-clock budget, a memory ceiling, and a kill of the whole process
 * group (tools it spawned included) when either is passed. A killed child is dead: its owner starts another.
 */
export class WarmChild {
  readonly process: ChildProcess;
  readonly ready: Promise<void>;
  readonly maxMemoryMb: number;
  jobs = 0;
  private exitedWith: string | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  /** Set by `kill()`: every kill quire sends goes through it, so any other death came from the child or outside. */
  private killedByQuire = false;
  private readonly exited: Promise<string>;
  private stderr = '';

  constructor(settings: ExtractorSettings, maxMemoryMb: number) {
    this.maxMemoryMb = maxMemoryMb;
    this.process = fork(CHILD_ENTRY, [JSON.stringify(settings)], {
      // --expose-gc: the child collects its garbage between jobs (see collectWhenGrown in child.ts).
      execArgv: [`--max-old-space-size=${maxMemoryMb}`, '--expose-gc'],
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // glibc serves a large allocation (a file read whole, a result sent) from its heap once a buffer that
      // size has been freed, and its heap seldom shrinks: a warm child reading the 600-page PDF again and again
      // grew 20 MB that way. A fixed threshold keeps every buffer over 128 KB mapped alone, given back when freed.
      env: { ...process.env, UV_THREADPOOL_SIZE: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4096);
    });
    this.exited = new Promise((resolve) => {
      this.process.once('exit', (code, signal) => {
        this.exitSignal = signal;
        this.exitedWith ??= signal ? `signal ${signal}` : `exit code ${code}`;
        // Its OCR folders go with it however it ended; a kill leaves it no chance to remove them itself.
        void removeOcrDirsOf(this.process.pid!).finally(() => resolve(this.exitedWith!));
      });
      // Could not be started, or its channel failed: as good as dead, and never an uncaught error in the worker.
      this.process.on('error', (err) => {
        this.stderr += `\n${err.message}`;
        if (this.process.pid === undefined) {
          this.exitedWith ??= `not started: ${err.message}`;
          resolve(this.exitedWith);
        } else void this.kill();
      });
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message?.type !== 'ready') return;
        this.process.off('message', onMessage);
        resolve();
      };
      this.process.on('message', onMessage);
      void this.exited.then((how) =>
        reject(new Error(`the sandbox child stopped before it was ready (${how}): ${this.stderr.trim()}`)),
      );
    });
    this.ready.catch(() => {});
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get alive(): boolean {
    return this.exitedWith === undefined;
  }

  /** Kills the child's whole process group and waits until it is gone. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.killedByQuire = true;
    try {
      process.kill(-this.process.pid!, 'SIGKILL');
    } catch {
      this.process.kill('SIGKILL');
    }
    await this.exited;
  }

  async rssMb(): Promise<number> {
    return this.process.pid ? readRssMb(this.process.pid) : 0;
  }

  /**
   * Runs one job. Never throws for anything the file does; throws when `signal` aborts it (the child is killed),
   * when the child is stopped by its owner, and `KilledFromOutside` when a signal quire did not send ended it.
   */
  async run(
    spec: SandboxSpec,
    limits: SandboxLimits,
    onProgress: (percent: number) => void,
    signal?: AbortSignal,
  ): Promise<JobOutcome> {
    signal?.throwIfAborted();
    await this.ready;
    // Starting a child can take seconds on a busy machine: an abort in that time must not be missed.
    signal?.throwIfAborted();
    this.jobs++;
    const child = this.process;
    let overrun: 'TIMEOUT' | 'TOO_LARGE' | 'ABORTED' | 'IMAGES' | undefined;
    let peakRssMb = 0;
    let partial: ExtractResult | undefined;
    const images: ExtractedImage[] = [];
    let imagesMs = 0;
    const kill = (reason: NonNullable<typeof overrun>) => {
      overrun ??= reason;
      void this.kill();
    };

    const started = Date.now();
    let timeoutMs = limits.timeoutMs;
    let timer = setTimeout(() => kill('TIMEOUT'), timeoutMs);
    const finished = new Promise<ChildMessage & { type: 'done' }>((resolve) => {
      const onMessage = (msg: ChildMessage) => {
        switch (msg?.type) {
          case 'progress':
            return onProgress(msg.percent);
          case 'pages': {
            if (!limits.perPageMs || partial) return;
            // Computed from the base budget, so a repeated report cannot stretch it further.
            const extended = Math.min(
              limits.maxTimeoutMs ?? limits.timeoutMs,
              limits.timeoutMs + msg.count * limits.perPageMs,
            );
            if (extended <= timeoutMs) return;
            timeoutMs = extended;
            clearTimeout(timer);
            timer = setTimeout(() => kill('TIMEOUT'), started + timeoutMs - Date.now());
            return;
          }
          case 'text': {
            if (!limits.imagesShare) return;
            partial = unpackResult(msg.result);
            // The images get their share of the budget, and never more than is left of it.
            imagesMs = Math.max(0, Math.min(timeoutMs * limits.imagesShare, started + timeoutMs - Date.now()));
            child.send({ type: 'images-budget', ms: imagesMs } satisfies ParentMessage);
            clearTimeout(timer);
            timer = setTimeout(() => kill('IMAGES'), imagesMs + IMAGES_GRACE_MS);
            return;
          }
          case 'image':
            images.push(msg.image);
            return;
          case 'done':
            child.off('message', onMessage);
            return resolve(msg);
          case 'ready':
            return;
        }
      };
      child.on('message', onMessage);
    });

    const onAbort = () => kill('ABORTED');
    signal?.addEventListener('abort', onAbort);
    const memoryWatch = setInterval(async () => {
      const rssMb = await this.rssMb();
      peakRssMb = Math.max(peakRssMb, rssMb);
      // The heap flag bounds JS memory; native buffers (pdf.js images, sharp, WebAssembly) are caught here.
      if (rssMb > limits.maxMemoryMb * 1.25) kill('TOO_LARGE');
    }, MEMORY_POLL_MS);

    // For the next worker's start-up sweep, should this worker die without killing the child.
    if (child.pid)
      await fs.promises.writeFile(path.join(path.dirname(spec.outputDir), SANDBOX_PID_FILE), String(child.pid));
    child.send({ type: 'run', spec } satisfies ParentMessage);
    const end = await Promise.race([finished, this.exited]);
    clearTimeout(timer);
    clearInterval(memoryWatch);
    signal?.removeEventListener('abort', onAbort);

    if (typeof end !== 'string') {
      const { report } = end;
      const outcome = report.ok ? { ...report, result: unpackResult(report.result) } : report;
      return { ...outcome, peakRssMb: Math.max(peakRssMb, report.peakRssMb) };
    }
    // Not the file's fault: the worker is shutting down and the job goes back to the queue.
    if (overrun === 'ABORTED') throw signal?.reason ?? new Error('extraction aborted');
    if (overrun === 'IMAGES' && partial) {
      const cutShort = {
        reason: 'TIMEOUT',
        message: `Image extraction took longer than its ${Math.round(imagesMs / 1000)} s share of the time budget`,
        imagesKept: images.length,
      };
      return {
        ok: true,
        result: { ...partial, images, metadata: { ...partial.metadata, imagesCutShort: cutShort } },
        peakRssMb,
      };
    }
    if (overrun === 'TIMEOUT') {
      return {
        ok: false,
        code: 'TIMEOUT',
        message: `Processing took longer than ${Math.round(timeoutMs / 1000)} s`,
        peakRssMb,
      };
    }
    if (overrun === 'TOO_LARGE' || /heap limit|out of memory/i.test(this.stderr)) {
      return {
        ok: false,
        code: 'TOO_LARGE',
        message: `Processing needed more than ${limits.maxMemoryMb} MB of memory`,
        peakRssMb,
      };
    }
    if (this.killedByQuire) throw new Error('the sandbox child was stopped by its pool during the job');
    if (isSentFromOutside(this.exitSignal)) throw new KilledFromOutside(this.exitSignal, child.pid);
    return { ok: false, code: 'CORRUPT', message: `The extractor stopped on this file (${end})`, peakRssMb };
  }
}

async function readRssMb(pid: number): Promise<number> {
  try {
    const status = await fs.promises.readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

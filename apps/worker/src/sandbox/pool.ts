import type { ExtractorSettings } from '@quire/extract';
import type { Logger } from 'pino';
import { retriedOnceIfKilledFromOutside } from './outside-kill.ts';
import type { SandboxSpec } from './protocol.ts';
import { WarmChild, type JobOutcome, type SandboxLimits } from './warm-child.ts';

/** How long the pool must have had nothing to do before it starts a spare. */
const SPARE_AFTER_IDLE_MS = 1_000;

export interface SandboxPoolOptions {
  /** One child per slot: the worker's concurrency. */
  slots: number;
  /** Jobs a child serves before it is replaced; 1 is a fresh process per job. */
  maxJobs: number;
  /** A child holding more than this after a job is replaced. */
  recycleRssMb: number;
  /**
   * Children started ahead, which never ran a job: a slot whose child is replaced takes one at once. They start
   * once the pool has been idle for a second (a full queue is never kept waiting by one), and at once after one
   * is taken.
   */
  spares?: number;
  /** The heap ceiling children are started with; a job asking for another gets a child of its own. */
  maxMemoryMb: number;
  /** What every child preloads its extractors with (each job brings its own in its spec). */
  settings: ExtractorSettings;
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>;
}

/** The shape `processMaterial` calls: one extraction, sandboxed, whatever runs it. */
export type RunSandboxed = (
  spec: SandboxSpec,
  limits: SandboxLimits,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
) => Promise<JobOutcome & { childPid?: number }>;

interface Slot {
  child?: WarmChild;
  busy: boolean;
}

/**
 * Keeps one warm sandbox child per slot and runs each job in a free slot's child. A child is replaced after
 * `maxJobs` jobs, when it holds more than `recycleRssMb` after a job, and after any job that did not end well
 * (timeout, memory kill, crash, or an error from the file): no job runs in a child that failed the last one.
 * A job whose child was killed from outside (not by quire) runs once more in a fresh child.
 * The replacement is a spare started ahead when there is one (another then starts in its place), so the next job
 * does not wait for a process to load every extractor; else it starts at once.
 */
export class SandboxPool {
  private readonly slots: Slot[];
  private readonly spares: WarmChild[] = [];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  /** When the last job ended with none left, if none has started since. */
  private idleSince: number | undefined = Date.now();
  private closed = false;

  constructor(private readonly options: SandboxPoolOptions) {
    this.slots = Array.from({ length: options.slots }, () => ({ busy: false }));
  }

  /** Starts every slot's child and waits until they are ready to take jobs; the spares follow if no job came. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.childFor(slot, this.options.maxMemoryMb).ready));
    if (this.idleSince !== undefined) this.startSpares();
  }

  /** The pids of the children now running, slot by slot (undefined: none yet). */
  pids(): (number | undefined)[] {
    return this.slots.map((slot) => (slot.child?.alive ? slot.child.pid : undefined));
  }

  readonly run: RunSandboxed = async (spec, limits, onProgress, signal) => {
    signal?.throwIfAborted();
    if (this.closed) throw new Error('the sandbox pool is closed');
    const slot = await this.acquire();
    try {
      // A child killed from outside is replaced by afterJob, so the second try runs in a fresh one.
      return await retriedOnceIfKilledFromOutside(spec, this.options.logger, () =>
        this.runInSlot(slot, spec, limits, onProgress, signal),
      );
    } finally {
      this.release(slot);
    }
  };

  private async runInSlot(
    slot: Slot,
    ...[spec, limits, onProgress, signal]: Parameters<RunSandboxed>
  ): Promise<JobOutcome & { childPid?: number }> {
    if (this.closed) throw new Error('the sandbox pool is closed');
    const child = this.childFor(slot, limits.maxMemoryMb);
    let outcome: JobOutcome | undefined;
    try {
      outcome = await child.run(spec, limits, onProgress, signal);
    } finally {
      // Decided before the slot is released, so no job ever finds the child it should not use.
      await this.afterJob(slot, child, outcome);
    }
    return { ...outcome, childPid: child.pid };
  }

  /** Kills every child; called once the worker's jobs have finished or been handed back. */
  async close(): Promise<void> {
    this.closed = true;
    const children = [...this.slots.map((slot) => slot.child), ...this.spares.splice(0)];
    await Promise.all(children.map((child) => child?.kill() ?? Promise.resolve()));
  }

  /** The slot's child when it can take a job with this heap ceiling, else a spare or a new one in its place. */
  private childFor(slot: Slot, maxMemoryMb: number): WarmChild {
    const current = slot.child;
    if (current?.alive && current.maxMemoryMb === maxMemoryMb) return current;
    if (current) void current.kill();
    const spare = this.spares.findIndex((child) => child.alive && child.maxMemoryMb === maxMemoryMb);
    const child = spare >= 0 ? this.spares.splice(spare, 1)[0]! : this.newChild(maxMemoryMb);
    if (spare >= 0) this.startSpares();
    child.process.once('exit', () => {
      // Died while idle (killed from outside, say): the slot starts another before the next job.
      if (slot.child === child && !slot.busy && !this.closed) this.childFor(slot, maxMemoryMb);
    });
    slot.child = child;
    return child;
  }

  private newChild(maxMemoryMb: number): WarmChild {
    const child = new WarmChild(this.options.settings, maxMemoryMb);
    child.ready.catch((err: Error) => this.options.logger.warn({ err }, 'a sandbox child failed to start'));
    return child;
  }

  /** Tops the spares up; one that dies while waiting is replaced, unless it died before it was ever ready. */
  private startSpares(): void {
    while (!this.closed && this.spares.length < (this.options.spares ?? 0)) {
      const spare = this.newChild(this.options.maxMemoryMb);
      this.spares.push(spare);
      let wasReady = false;
      void spare.ready.then(() => (wasReady = true)).catch(() => {});
      spare.process.once('exit', () => {
        const index = this.spares.indexOf(spare);
        if (index < 0) return;
        this.spares.splice(index, 1);
        if (wasReady) this.startSpares();
      });
    }
  }

  private async afterJob(slot: Slot, child: WarmChild, outcome: JobOutcome | undefined): Promise<void> {
    const reason = await this.recycleReason(child, outcome);
    if (!reason) return;
    this.options.logger.debug({ pid: child.pid, jobs: child.jobs, reason }, 'replacing a sandbox child');
    await child.kill();
    if (slot.child === child && !this.closed) this.childFor(slot, child.maxMemoryMb);
  }

  private async recycleReason(child: WarmChild, outcome: JobOutcome | undefined): Promise<string | undefined> {
    if (!child.alive) return 'it was killed or crashed';
    if (!outcome) return 'its job was aborted';
    if (!outcome.ok) return `its job failed (${outcome.code})`;
    if (child.jobs >= this.options.maxJobs) return `it served ${child.jobs} jobs`;
    const rss = await child.rssMb();
    if (rss > this.options.recycleRssMb) return `it holds ${Math.round(rss)} MB after a job`;
    return undefined;
  }

  private acquire(): Promise<Slot> {
    this.idleSince = undefined;
    const free = this.slots.find((slot) => !slot.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else slot.busy = false;
    if (this.slots.every((s) => !s.busy) && this.spares.length < (this.options.spares ?? 0)) {
      const since = (this.idleSince = Date.now());
      setTimeout(() => {
        if (this.idleSince === since) this.startSpares();
      }, SPARE_AFTER_IDLE_MS).unref();
    }
  }
}

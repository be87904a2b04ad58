import { spawn } from 'node:child_process';

/** One running instance of a supervised process. */
export interface Running {
  /** Resolves with how the process ended (`signal SIGKILL`, `exit code 1`). */
  exited: Promise<string>;
  stop(): Promise<void>;
}

export interface Supervised {
  name: string;
  /** Starts the process and resolves once it is ready; rejects (with the reason) when it cannot start. */
  start(): Promise<Running>;
}

export interface SupervisorOptions {
  maxRestarts: number;
  windowMs: number;
  backoffMs: number;
  log(line: string): void;
  /** Called once when a process keeps crashing; the owner stops everything and exits non-zero. */
  onGiveUp(reason: string): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * Keeps processes running: one that exits is started again after a backoff (doubling per exit within the
 * window), each restart logged; more than `maxRestarts` exits within `windowMs` (or a restart that fails
 * that often) and it gives up with the reason. Stops in reverse order of start.
 */
export class Supervisor {
  private readonly entries: { spec: Supervised; current?: Running }[] = [];
  private stopping = false;
  private readonly wakeUp = new AbortController();

  constructor(private readonly options: SupervisorOptions) {}

  /** Starts `spec` (throwing if it cannot start) and keeps it running from then on. */
  async add(spec: Supervised): Promise<void> {
    const entry: { spec: Supervised; current?: Running } = { spec };
    entry.current = await spec.start();
    this.entries.push(entry);
    void this.watch(entry);
  }

  private async watch(entry: { spec: Supervised; current?: Running }): Promise<void> {
    const { spec } = entry;
    const exits: number[] = [];
    let reason = await entry.current!.exited;
    while (!this.stopping) {
      entry.current = undefined;
      const now = Date.now();
      exits.push(now);
      while (exits.length > 0 && exits[0]! < now - this.options.windowMs) exits.shift();
      if (exits.length > this.options.maxRestarts) {
        this.options.onGiveUp(
          `${spec.name} keeps crashing: it ended ${exits.length} times within ${this.options.windowMs / 1000} s (last: ${reason})`,
        );
        return;
      }
      const delay = Math.min(this.options.backoffMs * 2 ** (exits.length - 1), MAX_BACKOFF_MS);
      this.options.log(
        `${spec.name} ended (${reason}); restarting it in ${delay} ms (restart ${exits.length} of at most ${this.options.maxRestarts} within ${this.options.windowMs / 1000} s)`,
      );
      await this.sleep(delay);
      if (this.stopping) return;
      try {
        entry.current = await spec.start();
        this.options.log(`${spec.name} restarted`);
        reason = await entry.current.exited;
      } catch (err) {
        reason = `restart failed: ${(err as Error).message}`;
      }
    }
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    this.wakeUp.abort();
    for (const entry of [...this.entries].reverse()) await entry.current?.stop().catch(() => {});
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export interface NodeProcessOptions {
  name: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The process must send `{ type: 'ready' }` over IPC within this long. */
  startTimeoutMs: number;
  /** How long SIGTERM may take before SIGKILL. */
  stopTimeoutMs: number;
}

/**
 * A Node process (api, worker) with its output on ours. It is ready when it says so over IPC; exiting or
 * staying silent before that is a failure to start, with the reason in the rejection.
 */
export function nodeProcess(options: NodeProcessOptions): Supervised {
  return {
    name: options.name,
    start: () =>
      new Promise<Running>((resolve, reject) => {
        const child = spawn(process.execPath, options.args, {
          cwd: options.cwd,
          env: options.env,
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        const exited = new Promise<string>((settle) =>
          child.once('exit', (code, signal) => settle(signal ? `signal ${signal}` : `exit code ${code}`)),
        );
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(
            new Error(
              `${options.name} did not report ready within ${options.startTimeoutMs / 1000} s; see its log above`,
            ),
          );
        }, options.startTimeoutMs);
        child.once('error', (err) => {
          clearTimeout(timer);
          reject(new Error(`${options.name} could not be started: ${err.message}`));
        });
        void exited.then((how) => {
          clearTimeout(timer);
          reject(new Error(`${options.name} ended before it was ready (${how}); see its log above`));
        });
        child.on('message', (message: { type?: string }) => {
          if (message?.type !== 'ready') return;
          clearTimeout(timer);
          resolve({
            exited,
            async stop() {
              if (child.exitCode !== null || child.signalCode !== null) return;
              const force = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs);
              child.kill('SIGTERM');
              await exited;
              clearTimeout(force);
            },
          });
        });
      }),
  };
}

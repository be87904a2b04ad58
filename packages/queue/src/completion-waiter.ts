import { QueueEvents, type ConnectionOptions } from 'bullmq';
import { INTERACTIVE_QUEUE, MATERIALS_QUEUE } from './jobs.ts';

/** What happened to a job: it settled (completed or failed), reported progress, or changed state otherwise. */
export type JobEvent = { kind: 'settled' } | { kind: 'progress'; progress: number } | { kind: 'changed' };

type Listener = (event: JobEvent) => void;

/**
 * One QueueEvents connection per process, fanned out to waiters and subscribers by job id, so a thousand
 * waiting requests or open event streams cost one Redis subscription instead of a thousand.
 */
export class CompletionWaiter {
  /** One per lane: a material's job runs in the materials queue or in the interactive one. */
  private readonly events: QueueEvents[];
  private readonly listeners = new Map<string, Set<Listener>>();

  /** `onError` hears the connection's errors (it reconnects by itself); waits fall back to re-reading meanwhile. */
  constructor(connection: ConnectionOptions, prefix: string, onError: (err: Error) => void) {
    this.events = [MATERIALS_QUEUE, INTERACTIVE_QUEUE].map((name) => new QueueEvents(name, { connection, prefix }));
    const notify = (jobId: string, event: JobEvent) => this.listeners.get(jobId)?.forEach((fn) => fn(event));
    for (const events of this.events) {
      events.on('error', onError);
      events.on('completed', ({ jobId }) => notify(jobId, { kind: 'settled' }));
      events.on('failed', ({ jobId }) => notify(jobId, { kind: 'settled' }));
      events.on('progress', ({ jobId, data }) => {
        if (typeof data === 'number') notify(jobId, { kind: 'progress', progress: data });
      });
      for (const name of ['added', 'waiting', 'active', 'delayed', 'removed'] as const) {
        events.on(name, ({ jobId }: { jobId: string }) => notify(jobId, { kind: 'changed' }));
      }
    }
  }

  /** Calls `listener` with every event of the job until the returned function is called. */
  subscribe(jobId: string, listener: Listener): () => void {
    let set = this.listeners.get(jobId);
    if (!set) this.listeners.set(jobId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(jobId) === set) this.listeners.delete(jobId);
    };
  }

  async ready(): Promise<void> {
    await Promise.all(this.events.map((events) => events.waitUntilReady()));
  }

  /**
   * Resolves with `read()`'s value once `isSettled` says so, or with the last value read when `timeoutMs`
   * passes. The listener is registered before the first read, so a job that finishes in between is seen;
   * `read()` is repeated every `pollIntervalMs` in case an event is lost (e.g. Redis restarted).
   */
  async waitFor<T>(
    jobId: string,
    read: () => Promise<T>,
    isSettled: (value: T) => boolean,
    timing: { timeoutMs: number; pollIntervalMs: number },
  ): Promise<{ value: T; timedOut: boolean }> {
    // An event that arrives while a read is in flight is remembered, so the next pause ends at once.
    let signalled = false;
    let wake = () => {};
    const unsubscribe = this.subscribe(jobId, (event) => {
      if (event.kind !== 'settled') return;
      signalled = true;
      wake();
    });

    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        if (signalled) {
          signalled = false;
          return resolve();
        }
        const timer = setTimeout(resolve, ms);
        wake = () => {
          signalled = false;
          clearTimeout(timer);
          resolve();
        };
      });

    const deadline = Date.now() + timing.timeoutMs;
    try {
      for (;;) {
        let value: T;
        try {
          value = await read();
        } catch (err) {
          if (Date.now() >= deadline) throw err;
          await pause(Math.min(timing.pollIntervalMs, deadline - Date.now()));
          continue;
        }
        if (isSettled(value)) return { value, timedOut: false };
        const remaining = deadline - Date.now();
        if (remaining <= 0) return { value, timedOut: true };
        await pause(Math.min(timing.pollIntervalMs, remaining));
      }
    } finally {
      unsubscribe();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.events.map((events) => events.close()));
  }
}

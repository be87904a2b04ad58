import { QueueEvents, type ConnectionOptions } from 'bullmq';
import { MATERIALS_QUEUE } from './jobs.ts';

type Listener = () => void;

/**
 * One QueueEvents connection per process, fanned out to waiters by job id, so a thousand waiting
 * requests cost one Redis subscription instead of a thousand.
 */
export class CompletionWaiter {
  private readonly events: QueueEvents;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(connection: ConnectionOptions, prefix: string) {
    this.events = new QueueEvents(MATERIALS_QUEUE, { connection, prefix });
    this.events.on('error', () => {});
    const notify = ({ jobId }: { jobId: string }) => this.listeners.get(jobId)?.forEach((fn) => fn());
    this.events.on('completed', notify);
    this.events.on('failed', notify);
  }

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
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
    let wake: Listener = () => {};
    const listener: Listener = () => {
      signalled = true;
      wake();
    };
    let set = this.listeners.get(jobId);
    if (!set) this.listeners.set(jobId, (set = new Set()));
    set.add(listener);

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
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(jobId);
    }
  }

  async close(): Promise<void> {
    await this.events.close();
  }
}

import { CANCEL_REASON } from '@quire/queue';

/**
 * The abort reason of a job a client cancelled. The sandbox throws it as it kills the child, which tells it apart
 * from a child killed from outside (the OOM killer, an operator), a timeout or a shutdown: a cancelled job is
 * neither retried nor handed back, since the cancel has already settled its material.
 */
export class JobCancelledError extends Error {
  constructor() {
    super('processing was cancelled on request');
    this.name = 'JobCancelledError';
  }
}

/**
 * The signal BullMQ gives a processor, narrowed to cancels: it aborts, with a `JobCancelledError`, when the worker
 * cancels the job on a client's request (see `subscribeToCancels`), and for nothing else.
 */
export function cancellationOf(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  const controller = new AbortController();
  const onAbort = () => {
    if (signal.reason === CANCEL_REASON) controller.abort(new JobCancelledError());
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return controller.signal;
}

/** One signal for work that stops on any of these (a cancel, the worker shutting down, a time budget). */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}

export const isCancelled = (signal: AbortSignal | undefined) =>
  signal?.aborted === true && signal.reason instanceof JobCancelledError;

import { describe, expect, it } from 'vitest';
import { CANCEL_REASON } from '@quire/queue';
import { anySignal, cancellationOf, isCancelled, JobCancelledError } from './cancellation.ts';

describe('cancellationOf', () => {
  it("aborts with a JobCancelledError when the worker cancels the job on a client's request", () => {
    const bullmq = new AbortController();
    const cancel = cancellationOf(bullmq.signal)!;
    expect(cancel.aborted).toBe(false);
    bullmq.abort(CANCEL_REASON);
    expect(cancel.reason).toBeInstanceOf(JobCancelledError);
    expect(isCancelled(cancel)).toBe(true);
  });

  it('does not take any other abort for a cancel', () => {
    const bullmq = new AbortController();
    const cancel = cancellationOf(bullmq.signal)!;
    bullmq.abort('worker closing');
    expect(cancel.aborted).toBe(false);
    expect(isCancelled(cancel)).toBe(false);
  });

  it('keeps the cancel reason through a combined signal, as the sandbox throws it', () => {
    const bullmq = new AbortController();
    const shutdown = new AbortController();
    const combined = anySignal(shutdown.signal, cancellationOf(bullmq.signal))!;
    bullmq.abort(CANCEL_REASON);
    expect(combined.reason).toBeInstanceOf(JobCancelledError);
    expect(anySignal(undefined, shutdown.signal)).toBe(shutdown.signal);
  });
});

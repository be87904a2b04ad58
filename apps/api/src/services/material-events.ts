import { findMaterial } from '@quire/db';
import { SETTLED_STATUSES, type Material, type MaterialStatus } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { EventStream } from '../streams/event-stream.ts';

/** Opens the stream once the material is known to exist; `onHeartbeat` runs on every heartbeat. */
export type OpenEventStream = (onHeartbeat: () => void) => EventStream;

/**
 * Streams a material's `status` and `progress` changes as Server-Sent Events until it settles (`active`,
 * `error` or `deleted`), then closes. Driven by the job's queue events; the row is re-read when the job
 * changes state and on every heartbeat, so a lost event delays an update by one heartbeat at most.
 */
export async function streamMaterialEvents(
  ctx: ApiContext,
  open: OpenEventStream,
  organizationId: string,
  id: string,
): Promise<void> {
  let stream: EventStream | undefined;
  let changedBeforeOpen = false;
  let last: { status: MaterialStatus; progress: number } | undefined;

  const show = (material: Material | undefined) => {
    if (!stream) return;
    const status = material?.status ?? 'deleted';
    const progress = status === 'processing' ? (material?.metadata.progress ?? 0) : 0;
    if (status !== last?.status) {
      const error = status === 'error' ? material?.metadata.error : undefined;
      stream.send('status', {
        _id: id,
        status,
        ...(status === 'processing' ? { progress } : {}),
        ...(error ? { error } : {}),
      });
      last = { status, progress };
    } else {
      showProgress(progress);
    }
    if (SETTLED_STATUSES.includes(status)) stream.close();
  };
  // Progress only grows within one run; an older value read from the row after a newer event is dropped.
  const showProgress = (progress: number) => {
    if (!stream || last?.status !== 'processing' || progress <= last.progress) return;
    stream.send('progress', { _id: id, progress });
    last.progress = progress;
  };

  let reading = false;
  let readAgain = false;
  const refresh = () => {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    void (async () => {
      do {
        readAgain = false;
        show(await findMaterial(ctx.db, organizationId, id));
      } while (readAgain);
    })()
      .catch((err) => ctx.logger.warn({ err, materialId: id }, 'could not re-read the material for its event stream'))
      .finally(() => (reading = false));
  };

  // Subscribed before the first read, so a change in between is not missed.
  const unsubscribe = ctx.waiter.subscribe(id, (event) => {
    if (!stream) changedBeforeOpen = true;
    else if (event.kind === 'progress') showProgress(event.progress);
    else refresh();
  });
  try {
    const first = await findMaterial(ctx.db, organizationId, id);
    if (!first) throw notFound();
    stream = open(refresh);
    const stop = () => stream?.close();
    ctx.shutdown.signal.addEventListener('abort', stop, { once: true });
    if (ctx.shutdown.signal.aborted) stop();
    show(first);
    if (changedBeforeOpen) refresh();
    await stream.closed;
    ctx.shutdown.signal.removeEventListener('abort', stop);
  } finally {
    unsubscribe();
  }
}

import { Worker } from 'bullmq';
import { MATERIALS_QUEUE, type JobMap, type ProcessResult } from '@quire/queue';
import type { WorkerContext } from './context.ts';
import { processMaterial } from './processors/process-material.ts';
import { startSweeper } from './sweeper.ts';

export interface RunningWorker {
  worker: Worker<JobMap['process-material'], ProcessResult>;
  /** Stops taking jobs, waits for the running ones (up to the deadline), then closes connections. */
  stop(deadlineMs?: number): Promise<void>;
}

/** The one place that wires processors to queues, with concurrency and lock settings. */
export function startWorker(ctx: WorkerContext): RunningWorker {
  const shutdown = new AbortController();
  const worker = new Worker<JobMap['process-material'], ProcessResult>(
    MATERIALS_QUEUE,
    (job) => processMaterial(job, { ...ctx, shutdown: shutdown.signal }),
    {
      connection: ctx.redis,
      prefix: ctx.config.QUEUE_PREFIX,
      concurrency: ctx.config.WORKER_CONCURRENCY,
      // Extraction runs in a child process, so the event loop stays free to renew this lock.
      lockDuration: ctx.config.WORKER_LOCK_MS,
      stalledInterval: Math.max(1000, Math.floor(ctx.config.WORKER_LOCK_MS / 2)),
      maxStalledCount: 2,
    },
  );
  worker.on('error', (err) => ctx.logger.warn({ err }, 'worker connection error'));
  worker.on('failed', (job, err) =>
    ctx.logger.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'job attempt failed'),
  );
  const stopSweeper = startSweeper(ctx);

  return {
    worker,
    async stop(deadlineMs = ctx.config.WORKER_SHUTDOWN_MS) {
      stopSweeper();
      const graceful = worker.close();
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, deadlineMs, 'timeout').unref());
      if ((await Promise.race([graceful, timeout])) === 'timeout') {
        ctx.logger.warn('jobs still running at the shutdown deadline; handing them back to the queue');
        shutdown.abort(new Error('worker shutting down'));
        await worker.close(true);
      }
    },
  };
}

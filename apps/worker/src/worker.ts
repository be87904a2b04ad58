import { WaitingChildrenError, Worker, type Job } from 'bullmq';
import {
  CANCEL_REASON,
  enqueueDeliveries,
  INTERACTIVE_QUEUE,
  MATERIALS_QUEUE,
  subscribeToCancels,
  WEBHOOKS_QUEUE,
  type ChunkResult,
  type DeliveryResult,
  type JobMap,
  type MaterialsJobData,
  type MaterialsJobName,
  type ProcessResult,
} from '@quire/queue';
import type { WorkerContext } from './context.ts';
import { cancellationOf } from './processors/cancellation.ts';
import { deliverWebhook } from './processors/deliver-webhook.ts';
import { processMaterial } from './processors/process-material.ts';
import { SandboxPool } from './sandbox/pool.ts';
import { sandboxSettingsOf } from './sandbox/settings.ts';
import { transcribeChunk } from './processors/transcribe-chunk.ts';
import { startSweeper } from './sweeper.ts';

// Deliveries wait on other people's servers, not on this machine's cores.
const WEBHOOK_CONCURRENCY = 8;

type MaterialsWorker = Worker<MaterialsJobData, ProcessResult | ChunkResult, MaterialsJobName>;

export interface RunningWorker {
  worker: MaterialsWorker;
  /** The slots kept for materials someone waits for, so they never wait for a bulk job to end. */
  interactive: MaterialsWorker;
  /** One warm extraction child per concurrency slot of both. */
  sandbox: SandboxPool;
  /** Resolves once this worker hears cancels sent to any api process. */
  cancelsHeard: Promise<void>;
  webhooks: Worker<JobMap['deliver-webhook'], DeliveryResult>;
  /** Stops taking jobs, waits for the running ones (up to the deadline), then closes connections. */
  stop(deadlineMs?: number): Promise<void>;
}

/** The one place that wires processors to queues, with concurrency, lock settings and job metrics. */
export function startWorker(ctx: WorkerContext): RunningWorker {
  const shutdown = new AbortController();
  const { metrics, config } = ctx;
  const sandbox = new SandboxPool({
    slots: config.worker.concurrency + config.worker.interactiveConcurrency,
    maxJobs: config.extraction.childMaxJobs,
    recycleRssMb: config.extraction.childRecycleRssMb,
    spares: config.extraction.spareChildren,
    maxMemoryMb: config.extraction.maxMemoryMb,
    settings: sandboxSettingsOf(config),
    logger: ctx.logger,
  });
  // Started in the background: a job that comes first waits for its slot's child to be ready.
  sandbox.start().catch((err) => ctx.logger.warn({ err }, 'sandbox children did not all start; jobs will retry them'));

  const runMaterialJob = async (
    job: Job<JobMap['process-material']>,
    token: string | undefined,
    cancel: AbortSignal | undefined,
  ): Promise<ProcessResult> => {
    const stopTimer = metrics.jobDuration.startTimer();
    let result: ProcessResult;
    try {
      result = await processMaterial(job, { ...ctx, shutdown: shutdown.signal, cancel, sandbox: sandbox.run }, token);
    } catch (err) {
      // A long recording's job waits for its chunk jobs and runs again once they are done.
      stopTimer({ content_type: 'unknown', outcome: err instanceof WaitingChildrenError ? 'waiting' : 'retry' });
      throw err;
    }
    stopTimer({ content_type: result.contentType ?? 'none', outcome: result.status });
    if (result.errorCode) metrics.extractionFailures.inc({ code: result.errorCode });
    const { webhookDeliveries, ...returned } = result;
    if (webhookDeliveries?.length) {
      // Recorded with the status: if this enqueue is lost, the sweeper finds them pending and enqueues them.
      await enqueueDeliveries(ctx.webhooksQueue, webhookDeliveries).catch((err) =>
        ctx.logger.warn(
          { err, jobId: job.id, materialId: job.data.materialId, attempt: job.attemptsMade + 1 },
          'could not enqueue webhook deliveries; the sweeper will',
        ),
      );
    }
    return returned;
  };

  // Three parameters: BullMQ hands a processor that declares the third an AbortSignal, which `cancelJob` aborts.
  const runJob = (
    job: Job<MaterialsJobData, ProcessResult | ChunkResult, MaterialsJobName>,
    token?: string,
    signal?: AbortSignal,
  ) => {
    const cancel = cancellationOf(signal);
    return job.name === 'transcribe-chunk'
      ? transcribeChunk(job as Job<JobMap['transcribe-chunk']>, { ...ctx, shutdown: shutdown.signal, cancel })
      : runMaterialJob(job as Job<JobMap['process-material']>, token, cancel);
  };

  const materialsWorker = (queueName: string, concurrency: number): MaterialsWorker => {
    const w = new Worker<MaterialsJobData, ProcessResult | ChunkResult, MaterialsJobName>(queueName, runJob, {
      connection: ctx.redis,
      prefix: ctx.config.redis.queuePrefix,
      concurrency,
      // Extraction runs in a child process, so the event loop stays free to renew this lock.
      lockDuration: ctx.config.worker.lockMs,
      stalledInterval: Math.max(1000, Math.floor(ctx.config.worker.lockMs / 2)),
      maxStalledCount: 2,
    });
    w.on('error', (err) => ctx.logger.warn({ err, queue: queueName }, 'worker connection error'));
    w.on('failed', (job, err) =>
      ctx.logger.warn(
        { jobId: job?.id, materialId: job?.data.materialId, attempt: job?.attemptsMade, err: err.message },
        'job attempt failed',
      ),
    );
    return w;
  };
  const worker = materialsWorker(MATERIALS_QUEUE, config.worker.concurrency);
  const interactive = materialsWorker(INTERACTIVE_QUEUE, config.worker.interactiveConcurrency);

  const webhooks = new Worker<JobMap['deliver-webhook'], DeliveryResult>(
    WEBHOOKS_QUEUE,
    (job) => deliverWebhook(job, ctx),
    {
      connection: ctx.redis,
      prefix: ctx.config.redis.queuePrefix,
      concurrency: WEBHOOK_CONCURRENCY,
    },
  );
  webhooks.on('error', (err) => ctx.logger.warn({ err }, 'webhook worker connection error'));

  const stopSweeper = startSweeper(ctx);

  // A cancel sent to any api process: the jobs of the material that run here are aborted (their children killed).
  const cancels = subscribeToCancels(
    config.redis.url,
    config.redis.queuePrefix,
    ({ materialId, jobIds }) => {
      const cancelled = jobIds.filter(
        (id) => worker.cancelJob(id, CANCEL_REASON) || interactive.cancelJob(id, CANCEL_REASON),
      );
      if (cancelled.length > 0) ctx.logger.info({ materialId, jobIds: cancelled }, 'cancelling jobs on request');
    },
    (err) => ctx.logger.warn({ err: err.message }, 'cancel subscription error'),
  );

  return {
    worker,
    interactive,
    sandbox,
    cancelsHeard: cancels.ready,
    webhooks,
    async stop(deadlineMs = ctx.config.worker.shutdownMs) {
      stopSweeper();
      await cancels.close();
      const graceful = Promise.all([worker.close(), interactive.close(), webhooks.close()]);
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, deadlineMs, 'timeout').unref());
      if ((await Promise.race([graceful, timeout])) === 'timeout') {
        ctx.logger.warn('jobs still running at the shutdown deadline; handing them back to the queue');
        shutdown.abort(new Error('worker shutting down'));
        // The children first: closing the queues waits on Redis, which may be gone already (Ctrl-C reaches the
        // servers of `npm start` too), and a worker killed while it waits would leave its children's folders.
        await sandbox.close();
        await Promise.all([worker.close(true), interactive.close(true), webhooks.close(true)]);
      }
      await sandbox.close();
    },
  };
}

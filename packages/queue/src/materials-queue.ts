import { Queue, type ConnectionOptions, type Job } from 'bullmq';
import { assignPriorities, weightOf, type FairShareSettings, type ProcessingClass } from './fair-share.ts';
import {
  INTERACTIVE_QUEUE,
  MATERIALS_QUEUE,
  type JobMap,
  type MaterialsJobData,
  type MaterialsJobName,
} from './jobs.ts';

type LaneQueue = Queue<MaterialsJobData, unknown, MaterialsJobName>;

/**
 * The materials queue (bulk work), with the interactive lane beside it and the weights its jobs' priorities
 * are computed with (see fair-share.ts). Interactive work has a queue of its own because slots are not
 * preemptible: a request that waits for its material must find a slot free, not one busy for a minute with a
 * recording's chunk, so workers keep slots for that lane alone (WORKER_INTERACTIVE_CONCURRENCY).
 */
export class MaterialsQueue extends Queue<MaterialsJobData, unknown, MaterialsJobName> {
  fairShare?: FairShareSettings;
  interactive?: LaneQueue;

  /** The queue a job of this class goes to. */
  lane(processingClass: ProcessingClass): LaneQueue {
    return processingClass === 'interactive' && this.interactive ? this.interactive : this;
  }

  /** Both lanes: a material's job is in one of them. */
  lanes(): LaneQueue[] {
    return this.interactive ? [this, this.interactive] : [this];
  }

  override async close(): Promise<void> {
    await Promise.all([this.interactive?.close(), super.close()]);
  }
}

export interface QueueSettings {
  prefix: string;
  attempts: number;
  /** Per-organization weights; every organization weighs 1 when absent. */
  fairShare?: FairShareSettings;
}

export function createMaterialsQueue(connection: ConnectionOptions, settings: QueueSettings): MaterialsQueue {
  const options = {
    connection,
    prefix: settings.prefix,
    defaultJobOptions: {
      attempts: settings.attempts,
      backoff: { type: 'exponential' as const, delay: 2_000 },
      // Kept briefly so a waiter that subscribes late can still see the outcome; never `true` (bullmq #2341).
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600, count: 5000 },
    },
  };
  const queue = new MaterialsQueue(MATERIALS_QUEUE, options);
  queue.interactive = new Queue(INTERACTIVE_QUEUE, options);
  // The lane's connection errors are the queue's: heard wherever those are (an unheard 'error' would throw).
  queue.interactive.on('error', (err) => {
    if (queue.listenerCount('error') > 0) queue.emit('error', err);
  });
  if (settings.fairShare) queue.fairShare = settings.fairShare;
  return queue;
}

export interface EnqueueOptions {
  /** Whose material it is: slots are shared fairly between organizations with work waiting. */
  organizationId: string;
  /** `interactive` goes to the interactive lane, ahead of the organization's own bulk work; default `bulk`. */
  processingClass?: ProcessingClass;
  /** See enqueueMaterial. */
  finishingMs?: number;
}

/** The material's job, in whichever lane it is; one still to run or running is preferred to a finished one. */
export async function findMaterialJob(queue: MaterialsQueue, materialId: string): Promise<Job | undefined> {
  const jobs = (await Promise.all(queue.lanes().map((lane) => lane.getJob(materialId)))).filter((j) => j !== undefined);
  if (jobs.length < 2) return jobs[0];
  for (const job of jobs) if (!(await job.isCompleted()) && !(await job.isFailed())) return job;
  return jobs[0];
}

/**
 * The material id is the job id, so enqueueing twice is a no-op while a job exists (in either lane). A
 * finished job with the same id is removed first so that reprocessing and the sweeper can run the material
 * again. `finishingMs`: how long to wait for a job that is still `active` to finish first. Reprocessing needs
 * it: a job stays `active` for a moment after its last write made the material `active`, and skipping the
 * enqueue then would leave the material to the sweeper.
 */
export async function enqueueMaterial(
  queue: MaterialsQueue,
  materialId: string,
  options: EnqueueOptions,
): Promise<void> {
  const existing = await Promise.all(queue.lanes().map((lane) => lane.getJob(materialId)));
  for (const job of existing) {
    if (!job) continue;
    const deadline = Date.now() + (options.finishingMs ?? 0);
    let state = await job.getState();
    while (state === 'active' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await job.getState();
    }
    if (state === 'completed' || state === 'failed') await job.remove();
    else return;
  }
  const { organizationId, processingClass = 'bulk' } = options;
  const flow = { organizationId, processingClass, weight: weightOf(queue.fairShare, organizationId) };
  let lane = queue.lane(processingClass);
  // An organization whose interactive slots are all taken by its own requests (a client that imports
  // through *-and-process) gets its further ones into the bulk lane, still ahead of its own bulk work, so that
  // they use the bulk slots too instead of queueing for the few interactive ones.
  let [priority] = await assignPriorities(lane, flow, 1, { unlessWaiting: lane !== queue });
  if (priority === undefined) {
    lane = queue;
    [priority] = await assignPriorities(lane, flow);
  }
  await lane.add('process-material', { materialId, organizationId }, { jobId: materialId, priority: priority! });
}

/** Removes a waiting or delayed job; an active one finishes and finds its material deleted. Throws if Redis refuses. */
export async function cancelMaterialJob(queue: MaterialsQueue, materialId: string): Promise<void> {
  for (const lane of queue.lanes()) {
    const job = await lane.getJob(materialId);
    if (!job) continue;
    const state = await job.getState();
    if (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') {
      await job.remove();
    }
  }
}

/**
 * Adds the chunk jobs of a long recording as children of its material's running job, in the same queue, so
 * any free slot of any worker takes them. They are the organization's bulk work: fair to other organizations
 * and behind the organization's own interactive requests, yet spread over every slot when nothing else waits. Ids are fixed per chunk of a plan: adding them again (the parent
 * re-planned after a crash) attaches the ones that exist instead of queueing the work twice. A chunk that
 * failed for good no longer holds its parent (`ignoreDependencyOnFailure`); the material ends with the rest.
 */
export async function addChunkJobs(
  queue: MaterialsQueue,
  parent: Job,
  chunks: JobMap['transcribe-chunk'][],
  options: { organizationId: string },
): Promise<void> {
  const { organizationId } = options;
  const weight = weightOf(queue.fairShare, organizationId);
  const priorities = await assignPriorities(queue, { organizationId, processingClass: 'bulk', weight }, chunks.length);
  const jobs = chunks.map((data, i) => ({
    data: { ...data, organizationId },
    opts: { jobId: chunkJobId(data), priority: priorities[i]! },
  }));
  for (const { opts } of jobs) {
    // A failed job with this id would be attached as a dependency that never completes.
    const existing = await queue.getJob(opts.jobId);
    if (existing && (await existing.getState()) === 'failed') await existing.remove();
  }
  await queue.addBulk(
    jobs.map(({ data, opts }) => ({
      name: 'transcribe-chunk' as const,
      data,
      opts: {
        ...opts,
        parent: { id: parent.id!, queue: parent.queueQualifiedName },
        ignoreDependencyOnFailure: true,
      },
    })),
  );
}

export function chunkJobId(chunk: JobMap['transcribe-chunk']): string {
  return `${chunk.materialId}-speech-${chunk.plan}-${chunk.index}`;
}

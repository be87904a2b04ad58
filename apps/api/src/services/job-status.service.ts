import { countFinishedSpeechChunks } from '@quire/db';
import type { Material } from '@quire/material';
import { findMaterialJob, pendingPosition } from '@quire/queue';
import type { ApiContext } from '../context.ts';
import { getMaterial } from './materials.service.ts';

export type JobState = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface JobStatus {
  jobId: string;
  status: JobState;
  startedAt?: string;
  completedAt?: string;
  error?: string;
  /** While pending: where its job stands among those waiting for a slot. */
  queue?: { jobsAhead: number; queued: number; estimatedWaitMs: number | null };
  progress: {
    percentage: number;
    currentBatch?: number;
    totalBatches?: number;
    processedImages?: number;
    totalImages?: number;
  };
  resultSummary?: {
    textExtracted: boolean;
    textLength: number;
    imagesProcessed: number;
    processingTimeMs: number;
  };
}

const QUEUED = new Set(['waiting', 'delayed', 'prioritized', 'wait']);

/** The status of a material's processing as the public service's job-status reports it (see `statusOf`). */
export async function jobStatusOf(ctx: ApiContext, organizationId: string, id: string): Promise<JobStatus> {
  const material = await getMaterial(ctx, organizationId, id);
  const job = material.status === 'processing' ? await findMaterialJob(ctx.queue, id) : undefined;
  const state = job ? await job.getState() : undefined;
  const status = statusOf(material, state);
  const { metadata } = material;
  const result: JobStatus = { jobId: id, status, progress: { percentage: 0 } };
  if (status === 'pending' && job) {
    const position = await pendingPosition(ctx.queue, id);
    if (position) {
      result.queue = { jobsAhead: position.ahead, queued: position.queued, estimatedWaitMs: position.estimatedWaitMs };
    }
  }

  const started = job?.processedOn ?? (status === 'pending' ? undefined : material.processingStartedAt?.getTime());
  if (started) result.startedAt = new Date(started).toISOString();
  if (status === 'completed' || status === 'failed' || status === 'cancelled') {
    result.completedAt = material.updatedAt.toISOString();
    if (metadata.error && status !== 'completed') result.error = metadata.error.message;
  }

  if (status === 'completed') result.progress.percentage = 100;
  else if (status === 'running') result.progress.percentage = metadata.progress ?? progressOfJob(job?.progress);
  const plan = (job?.data as { speech?: { plan: string } } | undefined)?.speech?.plan;
  if (plan) {
    // A long recording: its chunks are the batches.
    const { finished, total } = await countFinishedSpeechChunks(ctx.db, id, plan);
    Object.assign(result.progress, { currentBatch: finished, totalBatches: total });
  }
  if (status === 'completed' && metadata.images) {
    Object.assign(result.progress, { processedImages: metadata.images.length, totalImages: metadata.images.length });
  }
  if (metadata.textLength !== undefined && status === 'completed') {
    result.resultSummary = {
      textExtracted: metadata.textLength > 0,
      textLength: metadata.textLength,
      imagesProcessed: metadata.images?.length ?? 0,
      processingTimeMs: metadata.processingMs ?? 0,
    };
  }
  return result;
}

/**
 * From what quire knows: a material waiting for its upload or its job's turn is `pending`; one whose job runs (or
 * waits for its chunks) is `running`; `active` is `completed`; `error` is `failed`, or `cancelled` when a client
 * cancelled it. A `processing` material whose job is missing from the queue (lost, about to be re-enqueued by the
 * sweeper) is `running` once it reported progress, else `pending`.
 */
export function statusOf(material: Material, jobState: string | undefined): JobState {
  switch (material.status) {
    case 'active':
      return 'completed';
    case 'error':
      return material.metadata.error?.code === 'CANCELLED' ? 'cancelled' : 'failed';
    case 'processing':
      if (jobState === 'active' || jobState === 'waiting-children') return 'running';
      if (jobState !== undefined && QUEUED.has(jobState)) return 'pending';
      return (material.metadata.progress ?? 0) > 0 ? 'running' : 'pending';
    case 'pending_upload':
    case 'deleted':
      return 'pending';
  }
}

const progressOfJob = (progress: unknown) =>
  typeof progress === 'number' && Number.isFinite(progress) ? Math.max(0, Math.min(100, Math.round(progress))) : 0;

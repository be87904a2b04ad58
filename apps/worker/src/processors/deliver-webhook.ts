import { UnrecoverableError, type Job } from 'bullmq';
import type { Config } from '@quire/config';
import { failDelivery, findDeliveryToSend, recordDeliveryAttempt, type Db } from '@quire/db';
import { guardedRequest, RefusedTargetError } from '@quire/fetch';
import type { DeliveryResult, JobMap } from '@quire/queue';
import { SIGNATURE_HEADER, signatureHeader } from '@quire/webhooks';
import type { Logger } from 'pino';
import type { WorkerMetrics } from '../metrics.ts';

export interface DeliveryDeps {
  db: Db;
  config: Config;
  logger: Logger;
  metrics: WorkerMetrics;
}

type Answer = { statusCode: number } | { error: string; refused: boolean };

/**
 * POSTs one delivery, signed, through the same address guard as URL fetching. A 2xx ends it `delivered`;
 * anything else throws so BullMQ retries with backoff, until the last attempt ends it `failed`. A target
 * that is not a public address is refused at once and not retried. Every attempt is recorded.
 */
export async function deliverWebhook(job: Job<JobMap['deliver-webhook']>, deps: DeliveryDeps): Promise<DeliveryResult> {
  const { deliveryId } = job.data;
  const delivery = await findDeliveryToSend(deps.db, deliveryId);
  if (!delivery || delivery.status !== 'pending') return { status: 'skipped' };
  const attempt = job.attemptsMade + 1;
  const log = deps.logger.child({ jobId: job.id, deliveryId, webhookId: delivery.webhook_id, attempt });
  if (delivery.removed_at) {
    await failDelivery(deps.db, deliveryId, 'The webhook was removed');
    return { status: 'skipped' };
  }

  const body = JSON.stringify(delivery.payload);
  const started = Date.now();
  const answer = await post(
    delivery.url,
    body,
    {
      'Content-Type': 'application/json',
      'User-Agent': 'quire-webhooks/1',
      'Quire-Event': delivery.event_type,
      'Quire-Delivery': deliveryId,
      [SIGNATURE_HEADER]: signatureHeader(delivery.secret, body, Math.floor(Date.now() / 1000)),
    },
    deps.config,
  );
  const delivered = 'statusCode' in answer && answer.statusCode >= 200 && answer.statusCode < 300;
  const refused = 'refused' in answer && answer.refused;
  const final = delivered || refused || attempt >= (job.opts.attempts ?? 1);
  const error = 'error' in answer ? answer.error : delivered ? null : `The receiver answered ${answer.statusCode}`;
  await recordDeliveryAttempt(deps.db, {
    deliveryId,
    attempt,
    statusCode: 'statusCode' in answer ? answer.statusCode : null,
    error,
    durationMs: Date.now() - started,
    status: delivered ? 'delivered' : final ? 'failed' : 'pending',
  });
  deps.metrics.webhookAttempts.inc({ outcome: delivered ? 'delivered' : final ? 'failed' : 'retry' });
  if (delivered) {
    log.info({ statusCode: answer.statusCode }, 'webhook delivered');
    return { status: 'delivered' };
  }
  log.warn({ error, final }, 'webhook delivery attempt failed');
  if (refused) throw new UnrecoverableError(error!);
  throw new Error(error!);
}

async function post(url: string, body: string, headers: Record<string, string>, config: Config): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.webhooks.timeoutMs);
  try {
    const res = await guardedRequest(new URL(url), {
      allowHosts: config.webhooks.allowHosts,
      signal: controller.signal,
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      body,
    });
    // Only the status matters; whatever the receiver says after it is not read.
    res.destroy();
    return { statusCode: res.statusCode ?? 0 };
  } catch (err) {
    if (controller.signal.aborted) return { error: `No answer within ${config.webhooks.timeoutMs} ms`, refused: false };
    return { error: (err as Error).message, refused: err instanceof RefusedTargetError };
  } finally {
    clearTimeout(timer);
  }
}

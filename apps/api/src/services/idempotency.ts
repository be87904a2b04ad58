import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { stringify } from 'safe-stable-stringify';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '@quire/db';
import type { ApiContext } from '../context.ts';
import { AppError, badRequest, conflict } from '../errors.ts';
import { principalOf } from '../middleware/authenticate.ts';

const TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Parts are compared by meaning: JSON with sorted keys, so the same body with its keys in another order matches. */
export function fingerprintOf(req: Request, ...parts: unknown[]): string {
  const hash = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}`);
  for (const part of parts) hash.update('\n').update(typeof part === 'string' ? part : (stringify(part ?? null) ?? 'null'));
  return hash.digest('hex');
}

/**
 * Runs a creating request once per `Idempotency-Key`: a retry with the same key and the same request gets
 * the first response again for 24 hours (`onReplay` undoes anything the retry itself did, such as an
 * uploaded file); the same key with a different request is 422; one still running is 409.
 */
export async function idempotent(
  ctx: ApiContext,
  req: Request,
  fingerprint: string,
  run: () => Promise<Reply>,
  onReplay?: () => Promise<void>,
): Promise<Reply> {
  const key = req.get('idempotency-key');
  if (key === undefined) return run();
  if (!KEY_PATTERN.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', [{ field: 'Idempotency-Key', message: 'invalid' }]);
  }
  const { organizationId } = principalOf(req);
  const stored = await claimIdempotencyKey(ctx.db, organizationId, key, fingerprint, TTL_MS);
  if (stored) {
    await onReplay?.();
    if (stored.fingerprint !== fingerprint) {
      throw new AppError(422, 'IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was already used with a different request');
    }
    if (stored.statusCode === null) throw conflict('A request with this Idempotency-Key is still in progress');
    return { status: stored.statusCode, body: stored.body, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } };
  }
  try {
    const reply = await run();
    await completeIdempotencyKey(ctx.db, organizationId, key, { statusCode: reply.status, headers: reply.headers ?? {}, body: reply.body });
    return reply;
  } catch (err) {
    // A failed request did not happen: the client may retry it with the same key.
    await releaseIdempotencyKey(ctx.db, organizationId, key).catch(() => {});
    throw err;
  }
}

import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { claimIdempotencyKey, completeIdempotencyKey, idempotencyKeyTaken, releaseIdempotencyKey } from '@quire/db';
import type { ApiContext } from '../context.ts';
import { AppError, badRequest, conflict } from '../errors.ts';
import { withFreshUrls } from './replay-urls.ts';

const TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The answer kept for a key: what a retry gets again. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** One creating request: whose it is, the key it came with (if any), and what it asked for. */
export interface IdempotentRequest {
  organizationId: string;
  key: string | undefined;
  fingerprint: string;
}

/**
 * What identifies a request for its key: the operation and everything it was given. Parts are compared by
 * meaning: JSON with sorted keys, so the same body with its keys in another order matches.
 */
export function fingerprintOf(operation: string, ...parts: unknown[]): string {
  const hash = createHash('sha256').update(operation);
  for (const part of parts)
    hash.update('\n').update(typeof part === 'string' ? part : (stringify(part ?? null) ?? 'null'));
  return hash.digest('hex');
}

/**
 * Whether a request with this key will be answered from what is stored under it (or refused as a mismatch or
 * as still running), whatever its body: then an uploaded file need not be stored, only hashed. A key that
 * is absent or invalid is no replay.
 */
export async function isReplay(ctx: ApiContext, organizationId: string, key: string | undefined): Promise<boolean> {
  if (key === undefined || !KEY_PATTERN.test(key)) return false;
  return idempotencyKeyTaken(ctx.db, organizationId, key, TTL_MS);
}

/**
 * Runs a creating request once per `Idempotency-Key`: a retry with the same key and the same request gets
 * the first answer again for 24 hours, its signed URLs minted afresh; the same key with a different request is
 * 422; one still running is 409.
 */
export async function idempotent<A extends StoredAnswer>(
  ctx: ApiContext,
  request: IdempotentRequest,
  run: () => Promise<A>,
): Promise<StoredAnswer> {
  const { organizationId, key, fingerprint } = request;
  if (key === undefined) return run();
  if (!KEY_PATTERN.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', [
      { field: 'Idempotency-Key', message: 'invalid' },
    ]);
  }
  const stored = await claimIdempotencyKey(ctx.db, organizationId, key, fingerprint, TTL_MS);
  if (stored) {
    if (stored.fingerprint !== fingerprint) {
      throw new AppError(422, 'IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was already used with a different request');
    }
    if (stored.statusCode === null) throw conflict('A request with this Idempotency-Key is still in progress');
    return {
      status: stored.statusCode,
      body: await withFreshUrls(ctx, stored.body),
      headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
    };
  }
  try {
    const answer = await run();
    await completeIdempotencyKey(ctx.db, organizationId, key, {
      statusCode: answer.status,
      headers: answer.headers ?? {},
      body: answer.body,
    });
    return answer;
  } catch (err) {
    // A failed request did not happen: the client may retry it with the same key.
    await releaseIdempotencyKey(ctx.db, organizationId, key).catch((releaseErr) =>
      ctx.logger.warn(
        { err: releaseErr },
        'could not release an Idempotency-Key; a retry with it waits for its expiry',
      ),
    );
    throw err;
  }
}

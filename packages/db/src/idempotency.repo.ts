import { sql } from 'kysely';
import type { Db } from './connection.ts';

export interface StoredResponse {
  fingerprint: string;
  statusCode: number | null;
  headers: Record<string, string> | null;
  body: unknown;
}

/**
 * Claims `key` for a request; returns undefined when the claim is new, else what is stored under it.
 * Claims older than `ttlMs` are forgotten and taken over.
 */
export async function claimIdempotencyKey(
  db: Db,
  organizationId: string,
  key: string,
  fingerprint: string,
  ttlMs: number,
): Promise<StoredResponse | undefined> {
  const expiredBefore = new Date(Date.now() - ttlMs);
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .where('created_at', '<', expiredBefore)
    .execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ organization_id: organizationId, key, fingerprint })
    .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return undefined;
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_headers', 'response_body'])
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return {
    fingerprint: row.fingerprint,
    statusCode: row.status_code,
    headers: row.response_headers,
    body: row.response_body,
  };
}

/** Whether `key` is claimed (answered or still running) and not yet expired: a request with it is a replay. */
export async function idempotencyKeyTaken(
  db: Db,
  organizationId: string,
  key: string,
  ttlMs: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .where('created_at', '>=', new Date(Date.now() - ttlMs))
    .executeTakeFirst();
  return row !== undefined;
}

export async function completeIdempotencyKey(
  db: Db,
  organizationId: string,
  key: string,
  response: { statusCode: number; headers: Record<string, string>; body: unknown },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status_code: response.statusCode,
      response_headers: JSON.stringify(response.headers),
      response_body: JSON.stringify(response.body),
      completed_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .execute();
}

export async function releaseIdempotencyKey(db: Db, organizationId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .execute();
}

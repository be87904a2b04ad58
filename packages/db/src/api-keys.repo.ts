import type { Db } from './connection.ts';
import { newId } from './ids.ts';

export interface NewApiKey {
  organizationId: string;
  groupId?: string | null;
  prefix: string;
  keyHash: Buffer;
}

export async function insertApiKey(db: Db, key: NewApiKey): Promise<{ id: string }> {
  return db
    .insertInto('api_keys')
    .values({
      id: newId(),
      organization_id: key.organizationId,
      group_id: key.groupId ?? null,
      prefix: key.prefix,
      key_hash: key.keyHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The key with its group's plan window, active or not; the caller decides what a revoked key means. */
export async function findApiKeyByPrefix(db: Db, prefix: string) {
  return db
    .selectFrom('api_keys')
    .leftJoin('groups', 'groups.id', 'api_keys.group_id')
    .select([
      'api_keys.id',
      'api_keys.organization_id',
      'api_keys.group_id',
      'api_keys.key_hash',
      'api_keys.revoked_at',
      'groups.plan_valid_from',
      'groups.plan_valid_until',
    ])
    .where('api_keys.prefix', '=', prefix)
    .executeTakeFirst();
}

export async function revokeApiKey(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

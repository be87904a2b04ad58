import type { Migration } from 'kysely';
import * as createCoreTables from './0001_create_core_tables.ts';
import * as createIdempotencyKeys from './0002_create_idempotency_keys.ts';
import * as createUsageTables from './0003_create_usage_tables.ts';

/** Listed explicitly (no directory scanning) so bundling and ordering are obvious. */
export const migrations: Record<string, Migration> = {
  '0001_create_core_tables': createCoreTables,
  '0002_create_idempotency_keys': createIdempotencyKeys,
  '0003_create_usage_tables': createUsageTables,
};

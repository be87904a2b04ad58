import type { Migration } from 'kysely';
import * as createCoreTables from './0001_create_core_tables.ts';

/** Listed explicitly (no directory scanning) so bundling and ordering are obvious. */
export const migrations: Record<string, Migration> = {
  '0001_create_core_tables': createCoreTables,
};

import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from '../../../migrations/index.ts';

const migratorFor = (db: Kysely<any>) => new Migrator({ db, provider: { getMigrations: async () => migrations } });

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return applied(await migratorFor(db).migrateToLatest());
}

/** Migrates up (or down) to `name` inclusive: tests use it to build a database as an earlier version left it. */
export async function migrateTo(db: Kysely<any>, name: string): Promise<string[]> {
  return applied(await migratorFor(db).migrateTo(name));
}

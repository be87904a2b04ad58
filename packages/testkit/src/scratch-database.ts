import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { createDb, migrateTo, migrateToLatest, type Db } from '@quire/db';
import { migrations } from '../../../migrations/index.ts';

export interface ScratchDatabase {
  url: string;
  db: Db;
  /** Closes the connections and drops the database. */
  drop(): Promise<void>;
}

/** An empty database of its own on the run's Postgres, for tests that migrate it step by step. */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const admin = createDb(inject('databaseUrl'), { poolSize: 1 });
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await sql`create database ${sql.id(name)}`.execute(admin);
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { poolSize: 2 });
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}

/** The migration run just before `name`: the last one a database of the version before `name` had. */
export function migrationBefore(name: string): string {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf(name);
  if (at < 1) throw new Error(`no migration comes before ${name}`);
  return names[at - 1]!;
}

export interface MigratedScratchDatabase extends ScratchDatabase {
  /** The migrations it was given, in order. */
  applied: string[];
}

/**
 * A scratch database as a version of quire left it, holding the given organizations: migrated up to the
 * migration before `before` (the one under test, to be run by the test after it has written the rows that
 * version wrote), or to the latest without it.
 */
export async function createMigratedScratchDatabase(
  prefix: string,
  { before, organizations }: { before?: string; organizations: { id: string; name: string }[] },
): Promise<MigratedScratchDatabase> {
  const scratch = await createScratchDatabase(prefix);
  try {
    const applied = before ? await migrateTo(scratch.db, migrationBefore(before)) : await migrateToLatest(scratch.db);
    await scratch.db.insertInto('organizations').values(organizations).execute();
    return { ...scratch, applied };
  } catch (err) {
    await scratch.drop();
    throw err;
  }
}

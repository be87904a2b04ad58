import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { createDb, type Db } from '@quire/db';

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

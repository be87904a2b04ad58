import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

const INT8_OID = 20;

export type Db = Kysely<Database>;

/** `onIdleError` hears an idle client's failure (Postgres restarted); without it the failure is written to stderr. */
export function createDb(
  connectionString: string,
  options: { poolSize?: number; onIdleError?: (err: Error) => void } = {},
): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    // Byte counts are bigint columns; they stay far below 2^53, so numbers are safe and friendlier.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's error (e.g. Postgres restarted) must not crash the process; the next query reconnects.
  const onError =
    options.onIdleError ?? ((err: Error) => process.stderr.write(`postgres: idle client error: ${err.message}\n`));
  pool.on('error', onError);
  // The pool listens only to idle clients: a client checked out (inside a transaction, between its queries)
  // when Postgres goes away emitted its error to nobody, which crashed the process. Its query fails instead.
  pool.on('connect', (client) => client.on('error', onError));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Answers once Postgres runs a query: the readiness check. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

import { sql } from 'kysely';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { createDb } from '@quire/db';

const idleErrors: Error[] = [];
const db = createDb(inject('databaseUrl'), { poolSize: 2, onIdleError: (err) => idleErrors.push(err) });
const admin = createDb(inject('databaseUrl'), { poolSize: 1 });
afterAll(async () => {
  await db.destroy();
  await admin.destroy();
});

describe('a Postgres connection lost while a transaction holds it', () => {
  it('fails that transaction, without crashing the process, and the pool goes on', async () => {
    const transaction = db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // As when Postgres restarts: the server ends the connection between two queries of the transaction.
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
      await new Promise((r) => setTimeout(r, 1000));
      await sql`select 1`.execute(trx);
    });
    await expect(transaction).rejects.toThrow(/terminat|not queryable|Connection/i);
    expect(idleErrors.map((e) => e.message).join()).toMatch(/terminat/i);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});

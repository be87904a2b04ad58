import path from 'node:path';
import { loadConfig } from '@quire/config';
import { createDb, migrateToLatest, type Db } from '@quire/db';
import { startEmbeddedPostgres } from '@quire/stack';
import { runningStackEnv } from './embedded-stack.ts';

/**
 * The database `npm start` uses: DATABASE_URL if set, else the embedded Postgres of a running stack, else
 * the embedded Postgres started just for this command. Migrated to the latest schema.
 */
export async function openDatabase(): Promise<{ db: Db; url: string; applied: string[]; close(): Promise<void> }> {
  const config = loadConfig();
  let url = config.database.url ?? (await runningStackEnv(config))?.DATABASE_URL;
  let stopPostgres: (() => Promise<void>) | undefined;
  if (!url) {
    const postgres = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'postgres') });
    url = postgres.url;
    stopPostgres = postgres.stop;
  }
  const db = createDb(url, { poolSize: 2 });
  const applied = await migrateToLatest(db);
  return {
    db,
    url,
    applied,
    async close() {
      await db.destroy();
      await stopPostgres?.();
    },
  };
}

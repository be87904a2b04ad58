import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

describe('embedded Postgres with its data inside a folder only its owner can enter', () => {
  it('as root refuses in one sentence naming what to set (user postgres cannot enter it); as anyone else, starts', async () => {
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-private-'));
    await fs.chmod(home, 0o700);
    cleanup.push(() => fs.rm(home, { recursive: true, force: true }));
    const dataDir = path.join(home, 'data', 'postgres');
    const started = startEmbeddedPostgres({ dataDir });

    if (process.getuid?.() === 0) {
      await expect(started).rejects.toThrow(
        `As root, Postgres runs as user "postgres", which cannot enter ${path.join(home, 'data')}: set QUIRE_DATA_DIR to a folder it can reach`,
      );
      // Refused before anything was initialised.
      expect(await fs.readdir(path.join(home, 'data'))).toEqual([]);
    } else {
      const postgres = await started;
      cleanup.push(() => postgres.stop());
      expect(postgres.url).toMatch(/^postgresql:\/\//);
    }
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDb, createOrganization, lockMaterialIn, migrateTo, migrateToLatest, newId, type Db } from '@quire/db';
import type { SearchPassage } from '@quire/lifecycle';
import { startEmbeddedPostgres } from '@quire/stack';
import * as renameToPassages from '../../migrations/0016_rename_material_chunks_to_search_passages.ts';
import { recountSearchStatistics } from '@quire/testkit/search-recount';
import { seedMaterial, seedMove, seedPassages } from '@quire/testkit/seed-materials';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';
import { inventWords, seededRandom, zipfSampler } from './search-data.ts';

/** The last migration before search counts were merged at commit: the "before" database stops here. */
const BEFORE_MERGE_AT_COMMIT = '0014_create_speech_chunks';
const DEADLOCK = '40P01';

interface Options {
  passages: number;
  wordsPerPassage: number;
  vocabulary: number;
  rounds: number;
  concurrency: number[];
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      passages: { type: 'string', default: '1000' },
      'words-per-passage': { type: 'string', default: '120' },
      vocabulary: { type: 'string', default: '20000' },
      rounds: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '1,2,4' },
    },
  });
  return {
    passages: positiveInt(values.passages, 'passages'),
    wordsPerPassage: positiveInt(values['words-per-passage'], 'words-per-passage'),
    vocabulary: positiveInt(values.vocabulary, 'vocabulary'),
    rounds: positiveInt(values.rounds, 'rounds'),
    concurrency: values.concurrency.split(',').map((c) => positiveInt(c, 'concurrency')),
  };
}

/**
 * One database per way of publishing: `before` is migrated up to 0014 and publishes as the worker did (status
 * first, then passages); `after` is the latest schema and today's publish (lock the row, passages, status
 * last); `no search triggers` is `after` with the passages' search triggers disabled, the floor.
 */
type Variant = 'before' | 'after' | 'no search triggers';
const VARIANTS: Variant[] = ['before', 'after', 'no search triggers'];

/** The transaction the worker's publish runs, in the order of the variant. */
async function publish(db: Db, variant: Variant, organizationId: string, materialId: string, chunks: SearchPassage[]) {
  await db.transaction().execute(async (trx) => {
    if (variant === 'before') {
      if (!(await seedMove(trx, [materialId], ['processing'], 'active'))) throw new Error('not processing');
      await seedPassages(trx, { id: materialId, organizationId }, chunks);
      return;
    }
    if (!(await lockMaterialIn(trx, materialId, ['processing']))) throw new Error('not processing');
    await seedPassages(trx, { id: materialId, organizationId }, chunks);
    if (!(await seedMove(trx, [materialId], ['processing'], 'active'))) throw new Error('not processing');
  });
}

/** A deadlock abort is retried at once, as BullMQ retries the job; each one is counted. */
async function publishCountingDeadlocks(...args: Parameters<typeof publish>): Promise<number> {
  for (let deadlocks = 0; deadlocks < 20; deadlocks++) {
    try {
      await publish(...args);
      return deadlocks;
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK) throw err;
    }
  }
  throw new Error('20 deadlock aborts in a row');
}

/** Books of the same invented language, Zipf-distributed words, each from its own seed. */
function makeBook(o: Options, words: string[], seed: number): SearchPassage[] {
  const random = seededRandom(seed);
  const word = zipfSampler(random, words.length);
  return Array.from({ length: o.passages }, (_, page) => ({
    text: Array.from({ length: o.wordsPerPassage }, () => words[word()]!).join(' '),
    page: page + 1,
  }));
}

interface Cell {
  variant: Variant;
  books: number;
  /** First publish, then a republish of the same books (a reprocessing: every passage deleted and written again). */
  kind: 'publish' | 'republish';
  passagesPerSecond: number;
  deadlocks: number;
  exact: boolean;
}

async function measure(db: Db, o: Options, variant: Variant, books: SearchPassage[][]): Promise<Cell[]> {
  const cells: Cell[] = [];
  for (const kind of ['publish', 'republish'] as const) {
    const rates: number[] = [];
    let deadlocks = 0;
    let exact = true;
    for (let round = 0; round < o.rounds; round++) {
      const org = await createOrganization(db, `publish ${variant} ${books.length} ${round}`);
      const ids = await Promise.all(
        books.map(async (_, i) => {
          const m = await seedMaterial(db, {
            id: newId(),
            organizationId: org.id,
            folderId: null,
            name: `book ${i}`,
            contentType: 'text',
            status: 'processing',
            source: { kind: 'text', text: 'a book' },
            references: [],
            extractImages: false,
          });
          return m.id;
        }),
      );
      if (kind === 'republish') {
        await Promise.all(ids.map((id, i) => publish(db, variant, org.id, id, books[i]!)));
        await seedMove(db, ids, ['active'], 'processing');
      }
      const started = performance.now();
      const aborts = await Promise.all(
        ids.map((id, i) => publishCountingDeadlocks(db, variant, org.id, id, books[(i + 1) % books.length]!)),
      );
      const seconds = (performance.now() - started) / 1000;
      rates.push((books.length * o.passages) / seconds);
      deadlocks += aborts.reduce((a, b) => a + b, 0);
      if (variant !== 'no search triggers') {
        const recount = await recountSearchStatistics(db, org.id);
        exact &&= recount.exact;
      }
    }
    rates.sort((a, b) => a - b);
    cells.push({
      variant,
      books: books.length,
      kind,
      passagesPerSecond: Math.round(rates[Math.floor(rates.length / 2)]!),
      deadlocks,
      exact,
    });
  }
  return cells;
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const maxBooks = Math.max(...o.concurrency);
  console.log(
    `publish benchmark: books of ${o.passages} passages of ${o.wordsPerPassage} words (vocabulary ${o.vocabulary}), ` +
      `published ${o.concurrency.join(', ')} at once into one organization, median of ${o.rounds} rounds`,
  );
  const words = inventWords(seededRandom(31), o.vocabulary, 1);
  const books = Array.from({ length: maxBooks }, (_, i) => makeBook(o, words, 1000 + i));

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-publish-'));
  await fs.chmod(dataDir, 0o777);
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') });
  const admin = createDb(postgres.url, { poolSize: 1 });
  const cells: Cell[] = [];
  try {
    for (const variant of VARIANTS) {
      const name = `publish_${variant.replace(/\W+/g, '_')}`;
      await sql`create database ${sql.id(name)}`.execute(admin);
      const url = new URL(postgres.url);
      url.pathname = `/${name}`;
      const db = createDb(url.toString(), { poolSize: maxBooks + 2 });
      try {
        if (variant === 'before') {
          await migrateTo(db, BEFORE_MERGE_AT_COMMIT);
          // Only the table's name, so that today's repository writes the passages (0016 changes nothing else).
          await renameToPassages.up(db as never);
        } else await migrateToLatest(db);
        if (variant === 'no search triggers') {
          await sql`alter table search_passages disable trigger search_index_insert`.execute(db);
          await sql`alter table search_passages disable trigger search_index_delete`.execute(db);
        }
        for (const n of o.concurrency) {
          const measured = await measure(db, o, variant, books.slice(0, n));
          for (const cell of measured) {
            console.log(
              `  ${variant}, ${n} book(s), ${cell.kind}: ${cell.passagesPerSecond} passages/s, ${cell.deadlocks} deadlock aborts`,
            );
          }
          cells.push(...measured);
        }
      } finally {
        await db.destroy();
      }
    }
  } finally {
    await admin.destroy();
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }

  console.log('');
  printTable(
    cells.map((c) => ({
      variant: c.variant,
      books: c.books,
      kind: c.kind,
      'passages/s': c.passagesPerSecond,
      'deadlock aborts': c.deadlocks,
      'statistics exact': c.variant === 'no search triggers' ? '-' : c.exact ? 'yes' : 'NO',
    })),
  );
  const summary = {
    options: o,
    machine: machine(),
    cells,
    totalSeconds: Math.round((performance.now() - began) / 1000),
  };
  await reportWritten('publish', summary, loadBefore);
}

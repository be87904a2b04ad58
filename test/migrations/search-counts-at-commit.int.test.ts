import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@quire/db';
import {
  createMigratedScratchDatabase,
  recountSearchStatistics,
  seedMaterial,
  type ScratchDatabase,
} from '@quire/testkit';

let scratch: ScratchDatabase;
let db: Db;

beforeAll(async () => {
  scratch = await createMigratedScratchDatabase('quire_counts_at_commit', {
    organizations: [{ id: 'org-c', name: 'C' }],
  });
  db = scratch.db;
  for (const id of ['first', 'second', 'third']) {
    await seedMaterial(db, {
      id,
      organizationId: 'org-c',
      folderId: null,
      name: id,
      contentType: 'text',
      status: 'processing',
      source: { kind: 'text', text: id },
      references: [],
      extractImages: true,
    });
  }
});

afterAll(() => scratch?.drop());

const passages = (materialId: string, texts: string[], from = 0) =>
  texts.map((text, i) => ({ material_id: materialId, chunk_index: from + i, organization_id: 'org-c', text }));

describe("an organization's search counts", () => {
  it('are not locked by a transaction still writing passages: another publish in the organization goes through', async () => {
    await db.connection().execute(async (open) => {
      await sql`begin`.execute(open);
      await open
        .insertInto('search_passages')
        .values(passages('first', ['Glaciers carve deep valleys.', 'Rivers follow the valleys.']))
        .execute();
      // Another publish of the same organization, with the same words, while the first has not committed. The
      // counts used to be written with the passages, so this waited for the first transaction's end.
      await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '3s'`.execute(trx);
        await trx
          .insertInto('search_passages')
          .values(passages('second', ['Valleys hold glaciers.']))
          .execute();
        await trx
          .insertInto('search_passages')
          .values(passages('second', ['Rivers carve canyons.'], 1))
          .execute();
      });
      await sql`commit`.execute(open);
    });
    const recount = await recountSearchStatistics(db, 'org-c');
    expect(recount.wrongWords).toEqual([]);
    expect(recount.exact).toBe(true);
    expect(recount.kept).toMatchObject({ passages: 4 });
  });

  it('stay exact through rewrites, deletions and rolled-back transactions, and leave nothing pending', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('search_passages').where('material_id', '=', 'first').execute();
      await trx
        .insertInto('search_passages')
        .values(passages('first', ['Glaciers carve deep valleys.', 'Moraines mark where glaciers stopped.']))
        .execute();
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('search_passages')
          .values(passages('third', ['Ferns grow in shaded valleys.']))
          .execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.deleteFrom('search_passages').where('material_id', '=', 'second').execute();

    const recount = await recountSearchStatistics(db, 'org-c');
    expect(recount.wrongWords).toEqual([]);
    expect(recount.exact).toBe(true);
    expect(recount.kept).toMatchObject({ passages: 2 });
    // A word no passage holds any more stays in the vocabulary with no passages (corrections skip it).
    const rivers = await db
      .selectFrom('search_vocabulary')
      .select('passages')
      .where('organization_id', '=', 'org-c')
      .where('lexeme', '=', 'river')
      .executeTakeFirst();
    expect(rivers).toEqual({ passages: 0 });
    for (const table of ['search_pending_transactions', 'search_pending_vocabulary', 'search_pending_stats'] as const) {
      expect(await db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, createOrganization, materialCounters, newId, type Db } from '@quire/db';
import { seedMaterial, seedMaterials, seedMove } from './seed-materials.ts';

let db: Db;
beforeAll(() => {
  db = createDb(inject('databaseUrl'));
});
afterAll(() => db.destroy());

const statusCounts = async (organizationId: string) =>
  Object.fromEntries(
    (
      await db
        .selectFrom('materials')
        .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('organization_id', '=', organizationId)
        .groupBy('status')
        .execute()
    ).map((r) => [r.status, Number(r.n)]),
  );

describe('the testkit seeds materials through the lifecycle', () => {
  it('puts a bulk seed in each status it names, counted as the triggers count live ones', async () => {
    const org = await createOrganization(db, 'seed bulk');
    const statuses = ['active', 'error', 'deleted', 'processing', 'pending_upload'];
    const ids = Array.from({ length: 10 }, () => newId());
    const inserted = await seedMaterials(
      db,
      ['id', 'organization_id', 'folder_id', 'name', 'content_type', 'status', 'content', 'created_at', 'updated_at'],
      sql`
        select id, ${org.id}::text, null, 'seeded ' || n, 'text', (${statuses}::text[])[1 + (n - 1) % 5],
          jsonb_build_object('text', 'a note'), now(), timestamptz '2026-01-02T03:04:05Z'
        from unnest(${ids}::text[]) with ordinality as t(id, n)`,
    );
    expect(inserted).toBe(10);
    expect(await statusCounts(org.id)).toEqual({ active: 2, error: 2, deleted: 2, processing: 2, pending_upload: 2 });
    expect((await materialCounters(db, org.id)).live).toBe(8);
    const moved = await db
      .selectFrom('materials')
      .select('updated_at')
      .where('id', '=', ids[0]!)
      .executeTakeFirstOrThrow();
    expect(moved.updated_at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('creates one material in a status and moves it by the transition table only', async () => {
    const org = await createOrganization(db, 'seed one');
    const m = await seedMaterial(db, {
      id: newId(),
      organizationId: org.id,
      folderId: null,
      name: 'one',
      contentType: 'text',
      status: 'active',
      source: { kind: 'text', text: 'a note' },
      references: [],
      extractImages: false,
      metadata: { wordCount: 2, textLength: 6 },
    });
    expect(m).toMatchObject({ status: 'active', metadata: { wordCount: 2, textLength: 6 } });
    expect(await seedMove(db, [m.id], ['active'], 'processing')).toBe(1);
    expect(await seedMove(db, [m.id], ['active'], 'processing')).toBe(0);
    await expect(seedMove(db, [m.id], ['processing'], 'pending_upload')).rejects.toThrow(
      'a material cannot go from processing to pending_upload',
    );
  });
});

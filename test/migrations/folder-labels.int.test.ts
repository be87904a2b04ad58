import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@quire/api';
import { insertApiKey, migrateToLatest, type Db } from '@quire/db';
import {
  createMigratedScratchDatabase,
  migrationBefore,
  startTestStack,
  type MigratedScratchDatabase,
  type TestStack,
} from '@quire/testkit';
import { migrations } from '../../migrations/index.ts';

const FIRST_FOLDER_MIGRATION = '0004_create_folders';

const names = Object.keys(migrations).sort();
const previous = migrationBefore(FIRST_FOLDER_MIGRATION);
const early = new Date('2025-02-01T10:00:00.000Z');
let scratch: MigratedScratchDatabase;
let db: Db;
let databaseUrl: string;
let appliedBefore: string[];
let appliedAfter: string[];
let foldersTableBefore: unknown;

/** A material row as versions before folders wrote it: `folder_id` is whatever label the client sent. */
function labelled(
  organizationId: string,
  id: string,
  folderId: string | null,
  status = 'active',
  createdAt = new Date(),
) {
  return {
    id,
    organization_id: organizationId,
    folder_id: folderId,
    name: id,
    content_type: 'text',
    status,
    content: JSON.stringify({ text: id }),
    created_at: createdAt,
    updated_at: createdAt,
  };
}

// A fresh database migrated only as far as the version before folders, written to as that version did,
// then migrated to the latest version.
beforeAll(async () => {
  scratch = await createMigratedScratchDatabase('quire_labels', {
    before: FIRST_FOLDER_MIGRATION,
    organizations: [
      { id: 'org-a', name: 'A' },
      { id: 'org-b', name: 'B' },
    ],
  });
  ({ db, url: databaseUrl, applied: appliedBefore } = scratch);

  foldersTableBefore = (await sql<{ t: string | null }>`select to_regclass('folders') as t`.execute(db)).rows[0]!.t;
  await db
    .insertInto('materials')
    .values([
      labelled('org-a', 'a1', 'week-1', 'active', early),
      labelled('org-a', 'a2', 'week-1', 'processing'),
      labelled('org-a', 'a3', 'Week 2/Extra', 'error'),
      labelled('org-a', 'a4', 'week-1', 'deleted'),
      labelled('org-a', 'a5', 'only-deleted', 'deleted'),
      labelled('org-a', 'a6', null),
      labelled('org-b', 'b1', 'week-1', 'pending_upload'),
    ])
    .execute();
  appliedAfter = await migrateToLatest(db);
});

afterAll(() => scratch?.drop());

describe('moving folder labels into folders', () => {
  it('turns every (organization, label) of a live material into a folder with the label as its id', async () => {
    expect(appliedBefore.at(-1)).toBe(previous);
    expect(foldersTableBefore).toBeNull();
    expect(appliedAfter).toEqual(names.slice(names.indexOf(FIRST_FOLDER_MIGRATION)));

    const folders = await db
      .selectFrom('folders')
      .select(['organization_id', 'id', 'name', 'parent_folder_id', 'description', 'created_at'])
      .orderBy('organization_id')
      .orderBy('id')
      .execute();
    expect(folders.map(({ created_at: _, ...f }) => f)).toEqual([
      { organization_id: 'org-a', id: 'Week 2/Extra', name: 'Week 2/Extra', parent_folder_id: null, description: null },
      { organization_id: 'org-a', id: 'week-1', name: 'week-1', parent_folder_id: null, description: null },
      { organization_id: 'org-b', id: 'week-1', name: 'week-1', parent_folder_id: null, description: null },
    ]);
    expect(folders.find((f) => f.organization_id === 'org-a' && f.id === 'week-1')!.created_at).toEqual(early);

    const materials = await db.selectFrom('materials').select(['id', 'folder_id']).orderBy('id').execute();
    expect(materials).toEqual([
      { id: 'a1', folder_id: 'week-1' },
      { id: 'a2', folder_id: 'week-1' },
      { id: 'a3', folder_id: 'Week 2/Extra' },
      { id: 'a4', folder_id: 'week-1' },
      { id: 'a5', folder_id: null },
      { id: 'a6', folder_id: null },
      { id: 'b1', folder_id: 'week-1' },
    ]);

    const stray = db
      .insertInto('materials')
      .values(labelled('org-a', 'a7', 'never-created'))
      .execute();
    await expect(stray).rejects.toMatchObject({ code: '23503', constraint: 'materials_folder_fk' });
  });

  it('keeps the folderIds clients stored working through the API', async () => {
    let stack: TestStack | undefined;
    try {
      stack = await startTestStack({ worker: false, config: { DATABASE_URL: databaseUrl } });
      const request = async (organizationId: string, path: string) => {
        const key = generateApiKey();
        await insertApiKey(db, { organizationId, prefix: key.prefix, keyHash: key.hash });
        return fetch(`${stack!.url}${path}`, { headers: { 'x-api-key': key.apiKey } });
      };
      const listed = await (await request('org-a', '/api/v1/materials?folderId=week-1')).json();
      expect(listed.materials.map((m: { _id: string }) => m._id).sort()).toEqual(['a1', 'a2']);
      const folder = await (await request('org-a', '/api/v1/folders/week-1')).json();
      expect(folder).toMatchObject({ _id: 'week-1', name: 'week-1', organizationId: 'org-a', materialCount: 2 });
      const slashed = await request('org-a', `/api/v1/folders/${encodeURIComponent('Week 2/Extra')}/materials`);
      expect((await slashed.json()).materials.map((m: { _id: string }) => m._id)).toEqual(['a3']);
      expect((await (await request('org-b', '/api/v1/folders/week-1')).json()).materialCount).toBe(1);
      expect((await request('org-b', '/api/v1/folders/only-deleted')).status).toBe(404);
    } finally {
      await stack?.close();
    }
  });
});

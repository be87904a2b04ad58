import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@quire/api';
import { insertApiKey, migrateToLatest, type Db } from '@quire/db';
import { createMigratedScratchDatabase, startTestStack, type ScratchDatabase, type TestStack } from '@quire/testkit';

const SEARCH_POSTINGS_MIGRATION = '0012_create_search_postings';

let scratch: ScratchDatabase;
let db: Db;
let databaseUrl: string;

// Passages written by the version before ranked search, then the migration: they must be searchable as ranked.
beforeAll(async () => {
  scratch = await createMigratedScratchDatabase('quire_postings', {
    before: SEARCH_POSTINGS_MIGRATION,
    organizations: [{ id: 'org-a', name: 'A' }],
  });
  ({ db, url: databaseUrl } = scratch);

  const material = (id: string) => ({
    id,
    organization_id: 'org-a',
    folder_id: null,
    name: id,
    content_type: 'text',
    status: 'active' as const,
    content: JSON.stringify({ text: id }),
    metadata: '{}',
    references: '[]',
    created_at: new Date(),
    updated_at: new Date(),
  });
  await db
    .insertInto('materials')
    .values([material('geology'), material('botany')])
    .execute();
  await db
    .insertInto('material_chunks')
    .values([
      { material_id: 'geology', chunk_index: 0, organization_id: 'org-a', text: 'Glaciers carve valleys.' },
      {
        material_id: 'geology',
        chunk_index: 1,
        organization_id: 'org-a',
        text: 'Moraines mark where glaciers stopped.',
      },
      { material_id: 'botany', chunk_index: 0, organization_id: 'org-a', text: 'Ferns grow in valleys.' },
    ])
    .execute();
  await migrateToLatest(db);
});

afterAll(() => scratch?.drop());

describe('indexing the passages stored before ranked search', () => {
  it('ranks, corrects and highlights them through the API', async () => {
    let stack: TestStack | undefined;
    try {
      stack = await startTestStack({ worker: false, config: { DATABASE_URL: databaseUrl } });
      const key = generateApiKey();
      await insertApiKey(db, { organizationId: 'org-a', prefix: key.prefix, keyHash: key.hash });
      const res = await fetch(`${stack.url}/api/v1/materials/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.apiKey },
        body: JSON.stringify({ query: 'glaciers valleys morains', passagesPerMaterial: 2 }),
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      // "morains" is taken for "moraines", the rarest of the words, so the passage holding it comes first.
      expect(
        body.results.map((r: { material: { id: string }; chunkIndex: number }) => [r.material.id, r.chunkIndex]),
      ).toEqual([
        ['geology', 1],
        ['geology', 0],
        ['botany', 0],
      ]);
      expect(body.results[0].matchedTerms.sort()).toEqual(['glaciers', 'morains']);
      expect(
        body.results[0].highlights.map((h: { start: number; end: number }) =>
          body.results[0].text.slice(h.start, h.end),
        ),
      ).toEqual(['Moraines', 'glaciers']);
    } finally {
      await stack?.close();
    }
  });
});

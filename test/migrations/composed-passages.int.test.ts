import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@quire/api';
import { insertApiKey, migrateToLatest, type Db } from '@quire/db';
import {
  createMigratedScratchDatabase,
  recountSearchStatistics,
  startTestStack,
  type ScratchDatabase,
  type TestStack,
} from '@quire/testkit';

const COMPOSE_MIGRATION = '0019_compose_search_passages';

let scratch: ScratchDatabase;
let db: Db;
let databaseUrl: string;

const decomposed = 'Besonders bei Babyschalen sollte gepru\u0308ft werden.';
const composed = 'Die Gurtl\u00e4nge reicht.';

// Passages stored by the worker before it composed them, then the migration: found by the word as typed.
beforeAll(async () => {
  scratch = await createMigratedScratchDatabase('quire_composed', {
    before: COMPOSE_MIGRATION,
    organizations: [{ id: 'org-a', name: 'A' }],
  });
  ({ db, url: databaseUrl } = scratch);

  await db
    .insertInto('materials')
    .values({
      id: 'kindersitze',
      organization_id: 'org-a',
      folder_id: null,
      name: 'Kindersitze',
      content_type: 'text',
      status: 'active' as const,
      content: JSON.stringify({ text: 'x' }),
      metadata: '{}',
      references: '[]',
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  await db
    .insertInto('search_passages')
    .values([
      { material_id: 'kindersitze', chunk_index: 0, organization_id: 'org-a', text: composed, heading: ['Gurt'] },
      { material_id: 'kindersitze', chunk_index: 1, organization_id: 'org-a', text: decomposed, page: 2 },
    ])
    .execute();
  await migrateToLatest(db);
});

afterAll(() => scratch?.drop());

describe('composing the passages stored before', () => {
  it('rewrites only the decomposed ones, keeps their positions and the search statistics exact', async () => {
    const rows = await db
      .selectFrom('search_passages')
      .select(['chunk_index', 'text', 'page', 'heading'])
      .orderBy('chunk_index')
      .execute();
    expect(rows).toEqual([
      { chunk_index: 0, text: composed, page: null, heading: ['Gurt'] },
      { chunk_index: 1, text: decomposed.normalize('NFC'), page: 2, heading: null },
    ]);
    expect((await recountSearchStatistics(db, 'org-a')).exact).toBe(true);
  });

  it('finds them by the word as typed through the API', async () => {
    let stack: TestStack | undefined;
    try {
      stack = await startTestStack({ worker: false, config: { DATABASE_URL: databaseUrl } });
      const key = generateApiKey();
      await insertApiKey(db, { organizationId: 'org-a', prefix: key.prefix, keyHash: key.hash });
      const res = await fetch(`${stack.url}/api/v1/materials/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.apiKey },
        body: JSON.stringify({ query: '"sollte gepr\u00fcft"' }),
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.results.map((r: { chunkIndex: number; page: number }) => [r.chunkIndex, r.page])).toEqual([[1, 2]]);
    } finally {
      await stack?.close();
    }
  });
});

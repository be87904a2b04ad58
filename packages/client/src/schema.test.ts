import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readDocument, renderClientSchema, SCHEMA_FILE } from './generate-schema.ts';

describe('the typed client', () => {
  it('is generated from the emitted OpenAPI document (run `npm run client:generate` when this fails)', async () => {
    const checkedIn = await fs.readFile(SCHEMA_FILE, 'utf8');
    expect(
      checkedIn === (await renderClientSchema(await readDocument())),
      'packages/client/src/schema.ts is stale: run `npm run client:generate`',
    ).toBe(true);
  });
});

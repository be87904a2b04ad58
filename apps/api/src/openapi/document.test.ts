import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './document.ts';

const emitted = createRequire(import.meta.url).resolve('@quire/client/openapi.json');

describe('the emitted OpenAPI document', () => {
  it('is the one the route table makes (run `npm run client:generate` when this fails)', async () => {
    const document = JSON.parse(await fs.readFile(emitted, 'utf8'));
    expect(document, 'packages/client/openapi.json is stale: run `npm run client:generate`').toEqual(
      JSON.parse(JSON.stringify(buildOpenApiDocument())),
    );
  });
});

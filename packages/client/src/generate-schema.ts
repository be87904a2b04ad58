import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '@quire/api';

export const SCHEMA_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schema.ts');

const BANNER = `// Generated from the api's OpenAPI document by \`npm run client:generate\`; do not edit.
// A unit test (schema.test.ts) fails when this file no longer matches the document.
`;

/** The client's types, from the same document the api serves at /openapi.json. */
export async function renderClientSchema(): Promise<string> {
  const document = buildOpenApiDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
  return `${BANNER}\n${astToString(ast)}`;
}

export async function writeClientSchema(): Promise<string> {
  await fs.writeFile(SCHEMA_FILE, await renderClientSchema());
  return SCHEMA_FILE;
}

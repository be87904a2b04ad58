import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const PACKAGE_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const SCHEMA_FILE = path.join(PACKAGE_DIR, 'src', 'schema.ts');
/** The api's OpenAPI document as `npm run client:generate` emitted it: the only thing the client is made from. */
export const DOCUMENT_FILE = path.join(PACKAGE_DIR, 'openapi.json');

const BANNER = `// Generated from openapi.json (the api's OpenAPI document) by \`npm run client:generate\`; do not edit.
// A unit test (schema.test.ts) fails when this file no longer matches the document.
`;

export const readDocument = async (): Promise<unknown> => JSON.parse(await fs.readFile(DOCUMENT_FILE, 'utf8'));

/** The client's types, from the emitted document. */
export async function renderClientSchema(document: unknown): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0]);
  return `${BANNER}\n${astToString(ast)}`;
}

/** Writes the document the api emitted, then the types made from it. */
export async function writeClient(document: unknown): Promise<string[]> {
  await fs.writeFile(DOCUMENT_FILE, `${JSON.stringify(document, null, 2)}\n`);
  await fs.writeFile(SCHEMA_FILE, await renderClientSchema(document));
  return [DOCUMENT_FILE, SCHEMA_FILE];
}

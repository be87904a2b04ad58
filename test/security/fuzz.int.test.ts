import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let materialId: string;

beforeAll(async () => {
  stack = await startTestStack({
    worker: false,
    config: { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_IP: '100000' },
  });
  tenant = await stack.newTenant({ group: { planValidFrom: new Date('2024-01-01T00:00:00Z') } });
  const res = await tenant.request('/api/v1/materials/batch', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ materials: [{ name: 'fuzz target', filename: 'a.txt', contentType: 'text/plain' }] }),
  });
  materialId = (await res.json())[0].materialId;
});
afterAll(() => stack?.close());

/** Deterministic, so a failure can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const VALID_BODIES: Record<string, unknown> = {
  'upload-and-process': { name: 'n', content: { text: 'hello' }, timeoutMs: 1000 },
  'upload/url-and-process': { url: 'http://127.0.0.1:9/n', name: 'n', timeoutMs: 1000 },
  batch: { materials: [{ name: 'n', filename: 'f.pdf', contentType: 'application/pdf', folderId: 'x' }] },
  'upload/complete': { materialId: 'm', s3Key: 'k' },
  patch: { references: [{ title: 't', url: 'https://example.com' }] },
  events: {
    events: [
      {
        eventId: 'e',
        type: 'test_question_answered',
        userId: 'u',
        occurredAt: '2025-01-01T00:00:00Z',
        properties: { correct: true },
      },
    ],
  },
  create: { name: 'n', content: { text: 'hello' }, folderId: null },
  'presigned-url': { filename: 'f.pdf', contentType: 'application/pdf', name: 'n', extractImages: true },
  search: { query: 'hello world', topK: 5, materialIds: ['m'], folderIds: ['f'] },
  'bulk/move': { materialIds: ['m'], folderId: null },
  folder: { name: 'n', parentFolderId: null, description: 'd' },
};

function mutations(random: () => number): (string | Buffer)[] {
  const out: (string | Buffer)[] = [];
  for (const body of Object.values(VALID_BODIES)) {
    const text = JSON.stringify(body);
    out.push(text.slice(0, Math.floor(random() * text.length)));
    out.push(text.replace(/"[a-z]+"/, '42'));
    out.push(text.replace(/:\s*"[^"]*"/, ':' + JSON.stringify({ nested: ['x'] })));
    out.push(text.replace(/"n"/, JSON.stringify('x'.repeat(200_000))));
    out.push(text.replace(/"[a-z]+"(?=[,}\]])/, JSON.stringify('nul\u0000here')));
  }
  for (let i = 0; i < 20; i++)
    out.push(Buffer.from(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256))));
  out.push('null', '[]', '"string"', '1e309', '{"__proto__":{"polluted":true}}', '{"name":{"$gt":""}}', '\u0000\u0000');
  return out;
}

const ENDPOINTS: [string, string][] = [
  ['POST', '/api/v1/materials/upload-and-process'],
  ['POST', '/api/v1/materials/batch'],
  ['POST', '/api/v1/materials/upload/complete'],
  ['POST', '/api/v1/materials/upload'],
  ['POST', '/api/v1/materials/upload/file-and-process'],
  ['POST', '/api/v1/materials/upload/url'],
  ['POST', '/api/v1/materials/upload/url-and-process'],
  ['PATCH', '/api/v1/materials/{id}'],
  ['GET', '/api/v1/materials?page=%FF&limit=-1&search=%00'],
  ['DELETE', '/api/v1/materials/%2e%2e%2f'],
  ['POST', '/api/v1/usage/events'],
  ['GET', '/api/v1/usage/events?startDate=%FF&limit=1e400&offset=-0&eventType[]=x'],
  ['POST', '/api/groups/tests?startDate=%00&endDate=9999-99-99&students[x]=1'],
  ['POST', '/api/groups/engagement?startDate=0000-01-01T00:00:00Z&endDate=9999-12-31T23:59:59.999Z'],
  ['POST', '/api/v1/materials'],
  ['POST', '/api/v1/materials/upload/presigned-url'],
  ['POST', '/api/v1/materials/search'],
  ['POST', '/api/v1/materials/bulk/move'],
  ['POST', '/api/v1/materials/{id}/move'],
  ['POST', '/api/v1/materials/{id}/rename'],
  ['POST', '/api/v1/materials/{id}/reprocess'],
  ['GET', '/api/v1/materials/{id}/download-url?expiresIn=%FF'],
  ['POST', '/api/v1/folders'],
  ['GET', '/api/v1/folders?parentFolderId=%00&limit=x'],
  ['PATCH', '/api/v1/folders/%2e%2e'],
  ['PATCH', '/api/v1/folders/{id}/move'],
  ['GET', '/api/v1/folders/%00/materials?page=-1'],
  ['GET', '/api/v1/materials/%00'],
  ['GET', '/api/v1/folders/%00/materials'],
  ['PATCH', '/api/v1/folders/%00'],
];

describe('fuzzing every endpoint', () => {
  it('answers random, truncated and ill-typed bodies with a 4xx JSON error, never a 500', async () => {
    const random = prng(20261122);
    const failures: string[] = [];
    for (const [method, template] of ENDPOINTS) {
      const path = template.replace('{id}', materialId);
      for (const body of mutations(random)) {
        for (const contentType of ['application/json', 'multipart/form-data; boundary=xyz', 'text/plain']) {
          const res = await tenant.request(path, {
            method,
            headers: { 'content-type': contentType },
            body: method === 'GET' ? undefined : body,
          });
          const text = await res.text();
          if (res.status >= 500)
            failures.push(`${method} ${path} [${contentType}] -> ${res.status} ${text.slice(0, 200)}`);
          else if (res.status >= 400 && !text.startsWith('{'))
            failures.push(`${method} ${path} -> ${res.status} non-JSON body`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });
});

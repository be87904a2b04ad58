import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const json = JSON.stringify({ name: 'Encoded', content: { text: 'A body sent compressed' } });
const create = (encoding: string, body: Buffer) =>
  tenant.request('/api/v1/materials', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    body,
  });

describe('a body its Content-Encoding does not describe', () => {
  it.each([
    ['gzip', 'not compressed', Buffer.from(json)],
    ['deflate', 'not compressed', Buffer.from(json)],
    ['br', 'not compressed', Buffer.from(json)],
    ['gzip', 'truncated', gzipSync(json).subarray(0, 20)],
    ['deflate', 'truncated', deflateSync(json).subarray(0, 10)],
    ['br', 'truncated', brotliCompressSync(json).subarray(0, 10)],
  ])('%s over a body that is %s is the client error 400, with the usual error body', async (encoding, _how, body) => {
    const res = await create(encoding, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/Content-Encoding/),
    });
  });

  it('is still accepted when the encoding is right', async () => {
    for (const [encoding, body] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const res = await create(encoding, body);
      expect(res.status, encoding).toBe(201);
    }
  });
});

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorageOf, startTestStack, waitUntil, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const BOUNDARY = 'quire-cut-upload';
const form = (content: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nCut\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n` +
        'Content-Type: text/plain\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

/** The test stack serves the api from this very process: its open files are this process's. */
async function openPartialFiles(): Promise<string[]> {
  const { dir, keyPrefix } = localStorageOf(stack);
  const links = await Promise.all(
    (await fs.readdir('/proc/self/fd')).map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return links.filter((target) => target.startsWith(`${dir}/${keyPrefix}`) && target.endsWith('.partial'));
}

describe('a multipart upload whose encoded body is cut inside the file part', () => {
  for (const [coding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
  ] as const) {
    it(`answers 400 at once and keeps no partial file open (${coding})`, async () => {
      expect(await openPartialFiles()).toEqual([]);
      // Random bytes do not compress, so half the encoded body ends well inside the file part.
      const encoded = encode(form(Buffer.from(randomBytes(600_000).toString('base64'))));
      const started = Date.now();
      const res = await tenant.request('/api/v1/materials/upload', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-encoding': coding },
        body: encoded.subarray(0, encoded.length >> 1),
        signal: AbortSignal.timeout(15_000),
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(new RegExp(`Content-Encoding \\(${coding}\\)`));
      await waitUntil(async () => (await openPartialFiles()).length === 0, 2_000, 'the partial file to be closed');
      const { dir, keyPrefix } = localStorageOf(stack);
      const left = await fs.readdir(`${dir}/${keyPrefix}`, { recursive: true }).catch(() => [] as string[]);
      expect(left.filter((name) => name.endsWith('.partial'))).toEqual([]);
    });
  }
});

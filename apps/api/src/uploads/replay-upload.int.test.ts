import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorageOf, startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({ storage: 'local', worker: false });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const BOUNDARY = 'quire-replay-boundary';
const FILE = Buffer.alloc(256 * 1024, 'a line of the same text\n');
const head = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nonce\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="once.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\n`,
);
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** The folders of this organization's materials in the local store: one per material that stored a file. */
const materialFolders = async () => {
  const { dir, keyPrefix } = localStorageOf(stack);
  return fs.readdir(path.join(dir, keyPrefix, tenant.organizationId)).catch(() => [] as string[]);
};

/** Sends the upload with `key`, holding the body half-way until `held` resolves. */
function upload(key: string, held: Promise<void>) {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(head);
      controller.enqueue(FILE.subarray(0, FILE.length / 2));
      await held;
      controller.enqueue(FILE.subarray(FILE.length / 2));
      controller.enqueue(tail);
      controller.close();
    },
  });
  return tenant.request('/api/v1/materials/upload', {
    method: 'POST',
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'idempotency-key': key },
    duplex: 'half',
  });
}

describe('an idempotent upload replayed', () => {
  it('is answered from its key without its file being stored, even for a moment', async () => {
    const first = await upload('store-once', Promise.resolve());
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(await materialFolders()).toEqual([created._id]);

    let release!: () => void;
    const replay = upload('store-once', new Promise<void>((resolve) => (release = resolve)));
    // Half the file is in the api; a stored upload would have its folder (and a partial file) by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const during = await materialFolders();
    release();
    const replayed = await replay;
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await replayed.json())._id).toBe(created._id);
    expect(during).toEqual([created._id]);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '@quire/api';
import { createDb, createOrganization, insertApiKey } from '@quire/db';
import { rssMb, seedMove } from '@quire/testkit';

const MB = 1024 * 1024;
// Larger than the 60 MB the issue names, so GC noise (tens of MB, more on a loaded machine) cannot be
// mistaken for buffering: a buffered upload grows by the whole file, a streamed one by less than half of it.
const FILE_BYTES = 150 * MB;

/** Text made on the fly, so the test itself never holds the file either. */
function generatedText(total: number): ReadableStream<Uint8Array> {
  const line = Buffer.from('The quick brown fox jumps over the lazy dog while quire streams it.\n');
  let sent = 0;
  return Readable.toWeb(
    Readable.from(
      (function* () {
        while (sent < total) {
          const chunk = Buffer.alloc(Math.min(256 * 1024, total - sent));
          for (let o = 0; o < chunk.length; o += line.length)
            line.copy(chunk, o, 0, Math.min(line.length, chunk.length - o));
          sent += chunk.length;
          yield chunk;
        }
      })(),
    ),
  ) as ReadableStream<Uint8Array>;
}

describe.each(['local', 's3'] as const)('a 150 MB upload through the api process (%s storage)', (driver) => {
  let api: ChildProcess;
  let url: string;
  let apiKey: string;

  beforeAll(async () => {
    const db = createDb(inject('databaseUrl'));
    const org = await createOrganization(db, 'memory');
    const key = generateApiKey();
    await insertApiKey(db, { organizationId: org.id, prefix: key.prefix, keyHash: key.hash });
    await db.destroy();
    apiKey = key.apiKey;

    const port = await getPort();
    url = `http://127.0.0.1:${port}`;
    const s3 = new URL(inject('s3Endpoint'));
    api = spawn(process.execPath, ['--import', 'tsx', path.resolve('apps/api/src/main.ts')], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        PORT: String(port),
        DATABASE_URL: inject('databaseUrl'),
        REDIS_URL: inject('redisUrl'),
        QUEUE_PREFIX: `memory-${driver}`,
        STORAGE_DIR: path.join(inject('dataDir'), 'storage-memory'),
        STORAGE_SIGNING_SECRET: 'memory-test-secret-0123456789',
        ...(driver === 's3'
          ? {
              S3_ENDPOINT: s3.hostname,
              S3_PORT: s3.port,
              S3_ACCESS_KEY: 'S3RVER',
              S3_SECRET_KEY: 'S3RVER',
              S3_BUCKET: inject('s3Bucket'),
            }
          : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 30_000;
    while (
      !(await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('api did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    api?.kill('SIGKILL');
  });

  /** Uploads FILE_BYTES of generated text, streamed: neither the test nor the api ever holds it whole. */
  function uploadGeneratedText(name: string): Promise<Response> {
    const boundary = '----quire-memory-test';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Readable.toWeb(
      Readable.from(
        (async function* () {
          yield head;
          for await (const chunk of Readable.fromWeb(generatedText(FILE_BYTES) as never)) yield chunk as Buffer;
          yield tail;
        })(),
      ),
    );
    return fetch(`${url}/api/v1/materials/upload`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: body as never,
      duplex: 'half',
    });
  }

  it('stores the whole file while the api RSS grows by far less than the file', async () => {
    // Warm up code paths (multer, storage driver) so first-use allocations are not counted as growth.
    const warm = new FormData();
    warm.append('name', 'warm');
    warm.append('file', new Blob(['warm up text']), 'w.txt');
    expect(
      (await fetch(`${url}/api/v1/materials/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: warm }))
        .status,
    ).toBe(201);

    const baseline = await rssMb(api.pid!);
    let peak = baseline;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, await rssMb(api.pid!).catch(() => 0));
    }, 20);

    const res = await uploadGeneratedText('big');
    clearInterval(sampler);
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.content.fileSize).toBe(FILE_BYTES);
    expect(material.usage.storageBytes).toBe(FILE_BYTES);
    const growth = peak - baseline;
    console.info(`${driver}: api RSS grew ${growth.toFixed(1)} MB during a ${FILE_BYTES / MB} MB upload`);
    expect(growth, `api RSS grew ${growth.toFixed(1)} MB`).toBeLessThan(FILE_BYTES / MB / 2);
  });

  it('streams a 150 MB stored text from /text while the api RSS grows by far less than the text', async () => {
    const uploaded = await uploadGeneratedText('long book');
    expect(uploaded.status).toBe(201);
    const { _id: id, content } = await uploaded.json();
    // No worker runs here: the row is made active with the file as its stored text, as a long book's would be.
    const db = createDb(inject('databaseUrl'));
    await seedMove(db, [id], ['processing'], 'active', {
      metadata: { textKey: content.s3Key, textLength: FILE_BYTES, wordCount: 0 },
    });
    await db.destroy();

    const baseline = await rssMb(api.pid!);
    let peak = baseline;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, await rssMb(api.pid!).catch(() => 0));
    }, 20);
    const res = await fetch(`${url}/api/v1/materials/${id}/text`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
    let received = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) received += chunk.length;
    clearInterval(sampler);
    expect(received).toBe(FILE_BYTES);
    const growth = peak - baseline;
    console.info(`${driver}: api RSS grew ${growth.toFixed(1)} MB while streaming a ${FILE_BYTES / MB} MB text`);
    expect(growth, `api RSS grew ${growth.toFixed(1)} MB`).toBeLessThan(FILE_BYTES / MB / 2);
  });
});

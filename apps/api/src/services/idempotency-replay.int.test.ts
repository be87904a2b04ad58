import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

const TTL_SECONDS = 60;
let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  // Every URL signed per response, so the test sees when each was minted.
  stack = await startTestStack({
    config: {
      DOWNLOAD_URL_TTL_SECONDS: String(TTL_SECONDS),
      DOWNLOAD_URL_REUSE_SECONDS: '0',
      UPLOAD_URL_TTL_SECONDS: '60',
    },
  });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const expiryOf = (url: string) => Number(new URL(url).searchParams.get('expires'));
const nowSeconds = () => Math.floor(Date.now() / 1000);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an Idempotency-Key replay', () => {
  it('carries download URLs valid for their full lifetime from the replay, not from the first answer', async () => {
    const send = () => {
      const form = new FormData();
      form.append('name', 'replayed');
      form.append('file', new Blob(['bytes behind a signed URL']), 'replayed.txt');
      return tenant.request('/api/v1/materials/upload', {
        method: 'POST',
        body: form,
        headers: { 'idempotency-key': 'replay-urls-1' },
      });
    };
    const first = await (await send()).json();
    const firstExpiry = expiryOf(first.content.s3Url);
    await pause(2_100);

    const replayedAt = nowSeconds();
    const replay = await send();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const body = await replay.json();
    expect(body._id).toBe(first._id);
    expect(expiryOf(body.content.s3Url)).toBeGreaterThanOrEqual(replayedAt + TTL_SECONDS);
    expect(expiryOf(body.content.s3Url)).toBeGreaterThan(firstExpiry);
    const download = await fetch(body.content.s3Url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('bytes behind a signed URL');
  });

  it('carries upload URLs of a batch valid for their full lifetime from the replay', async () => {
    const send = () =>
      tenant.request('/api/v1/materials/batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'replay-urls-2' },
        body: JSON.stringify({ materials: [{ name: 'later', filename: 'later.txt', contentType: 'text/plain' }] }),
      });
    const first = await (await send()).json();
    await pause(2_100);
    const replayedAt = nowSeconds();
    const replay = await (await send()).json();
    const [before] = first;
    const [after] = replay;
    expect(after.materialId).toBe(before.materialId);
    expect(expiryOf(after.uploadUrl)).toBeGreaterThanOrEqual(replayedAt + 60);
    expect(expiryOf(after.uploadUrl)).toBeGreaterThan(expiryOf(before.uploadUrl));
  });
});

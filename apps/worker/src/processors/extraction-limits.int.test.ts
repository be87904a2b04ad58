import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentBombPdf,
  imageHeavyPdf,
  makePdf,
  startTestStack,
  uploadAndProcess,
  type TestStack,
} from '@quire/testkit';

/** What a user sees of extraction limits, through the api and the in-process worker with its warm sandbox pool. */
describe('a PDF whose images outlast their share of the time budget', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // 4 s for the whole job, of which the images may use 5 % (200 ms) once the text is out.
    stack = await startTestStack({
      config: { EXTRACT_TIMEOUT_MS: '4000', EXTRACT_IMAGES_SHARE: '0.05', WORKER_CONCURRENCY: '1' },
    });
  });
  afterAll(() => stack?.close());

  it('ends active with all its text, the images made so far, and says why the rest are missing', async () => {
    const tenant = await stack.newTenant();
    const res = await uploadAndProcess(tenant, await imageHeavyPdf(8, 3000), 'pictures.pdf');
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.status).toBe('active');
    for (let page = 1; page <= 8; page++) expect(material.metadata.extractedText).toContain(`Page ${page}`);
    expect(material.metadata.pageCount).toBe(8);
    expect(material.metadata.imagesCutShort).toMatchObject({ reason: 'TIMEOUT' });
    expect(material.metadata.images.length).toBe(material.metadata.imagesCutShort.imagesKept);
    expect(material.metadata.images.length).toBeLessThan(8);
  });
});

describe('a decompression bomb in a worker with one slot', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ config: { EXTRACT_MAX_MEMORY_MB: '256', WORKER_CONCURRENCY: '1' } });
  });
  afterAll(() => stack?.close());

  it('ends TOO_LARGE, and the next PDF in the same slot is processed as if nothing happened', async () => {
    const tenant = await stack.newTenant();
    const bomb = await uploadAndProcess(tenant, contentBombPdf(300), 'bomb.pdf');
    expect(bomb.status).toBe(422);
    expect((await bomb.json()).material.metadata.error.code).toBe('TOO_LARGE');

    const next = await uploadAndProcess(tenant, await makePdf(['Still here after the bomb.']), 'after.pdf');
    expect(next.status).toBe(201);
    expect((await next.json()).metadata.extractedText).toBe('Still here after the bomb.');
  });
});

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEpub,
  makeImageBomb,
  makePdf,
  makeTextImage,
  makeZipBomb,
  pdfWithPictures,
  startTestStack,
  uploadAndProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({ storage: 's3' });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

/** Uploads through the api and waits for the real worker: 201 active, 422 error (with the material). */
async function processFile(body: Buffer, filename: string) {
  const res = await uploadAndProcess(tenant, body, filename, { extractImages: true });
  const json = await res.json();
  return { status: res.status, material: res.status === 422 ? json.material : json };
}

async function fetchImage(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return sharp(Buffer.from(await res.arrayBuffer())).metadata();
}

function expectMeasured(metadata: { processingMs: number; peakMemoryMb: number }) {
  expect(metadata.processingMs).toBeGreaterThan(0);
  expect(metadata.peakMemoryMb).toBeGreaterThan(30);
}

describe('pdf', () => {
  it("keeps each page's text, the document info, and the pictures in storage with their page", async () => {
    const words = await makePdf(['Apples grow on trees.', 'Photosynthesis turns light into sugar.'], {
      title: 'Botany',
      author: 'Mendel',
    });
    const { status, material } = await processFile(words, 'botany.pdf');
    expect(status).toBe(201);
    expect(material.metadata).toMatchObject({ pageCount: 2, title: 'Botany', author: 'Mendel' });
    const page2 = material.metadata.pages[1];
    expect(material.metadata.extractedText.slice(page2.offset, page2.offset + page2.length)).toBe(
      'Photosynthesis turns light into sugar.',
    );
    expectMeasured(material.metadata);

    const pictures = await pdfWithPictures(3, [
      { page: 2, width: 300, height: 200 },
      { page: 3, width: 24, height: 24 },
    ]);
    const withPictures = (await processFile(pictures, 'pictures.pdf')).material;
    expect(withPictures.metadata.images).toHaveLength(1);
    expect(withPictures.metadata.images[0]).toMatchObject({ page: 2, width: 300, height: 200 });
    expect(await fetchImage(withPictures.metadata.images[0].s3Url)).toMatchObject({
      format: 'webp',
      width: 300,
      height: 200,
    });
    expect(withPictures.usage.derivedBytes).toBeGreaterThan(0);
  });

  it('ends a password-protected PDF error/ENCRYPTED and a damaged one error/CORRUPT, each with a readable message', async () => {
    const encrypted = await processFile(await makePdf(['Secret.'], { userPassword: 'pw' }), 'locked.pdf');
    expect(encrypted.status).toBe(422);
    expect(encrypted.material.status).toBe('error');
    expect(encrypted.material.metadata.error).toEqual({ code: 'ENCRYPTED', message: 'The PDF is password-protected' });
    expectMeasured(encrypted.material.metadata);

    const damaged = await processFile(
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)]),
      'damaged.pdf',
    );
    expect(damaged.status).toBe(422);
    expect(damaged.material.metadata.error.code).toBe('CORRUPT');
    expect(damaged.material.metadata.error.message).toMatch(/^The PDF could not be read: /);
  });
});

describe('epub', () => {
  it('keeps title, author, language, chapters in order with their text, the contents, and chapter pictures in storage', async () => {
    const book = await makeEpub(
      [
        { title: 'Morning', paragraphs: ['The rooster crows at dawn.'] },
        { title: 'Noon', paragraphs: ['The sun stands high above the barn.'] },
        { title: 'Night', paragraphs: ['Owls hunt in the dark.'] },
      ],
      { title: 'A Farm Day', author: 'Beatrix Potter', language: 'en', pictureInChapter: 3 },
    );
    const { status, material } = await processFile(book, 'farm.epub');
    expect(status).toBe(201);
    expect(material.contentType).toBe('epub');
    expect(material.metadata).toMatchObject({
      title: 'A Farm Day',
      author: 'Beatrix Potter',
      language: 'en',
      chapterCount: 3,
    });
    expect(material.metadata.chapters.map((c: { title: string }) => c.title)).toEqual(['Morning', 'Noon', 'Night']);
    expect(material.metadata.toc.map((e: { title: string; chapter: number }) => [e.title, e.chapter])).toEqual([
      ['Morning', 1],
      ['Noon', 2],
      ['Night', 3],
    ]);
    expect(material.metadata.extractedText).toBe(
      'Morning\n\nThe rooster crows at dawn.\n\nNoon\n\nThe sun stands high above the barn.\n\nNight\n\nOwls hunt in the dark.',
    );
    expect(material.metadata.images).toHaveLength(1);
    expect(material.metadata.images[0]).toMatchObject({ chapter: 3, width: 400, height: 300 });
    expect(await fetchImage(material.metadata.images[0].s3Url)).toMatchObject({ format: 'webp', width: 400 });
    expectMeasured(material.metadata);
  });

  it('ends a zip bomb error/TOO_LARGE and a broken zip error/CORRUPT', async () => {
    const bomb = await processFile(await makeZipBomb(64), 'bomb.epub');
    expect(bomb.status).toBe(422);
    expect(bomb.material.metadata.error.code).toBe('TOO_LARGE');
    expect(bomb.material.metadata.error.message).toMatch(/zip bomb/);

    const book = await makeEpub([{ title: 'One', paragraphs: ['Only chapter.'] }]);
    const broken = await processFile(book.subarray(0, book.length - 100), 'broken.epub');
    expect(broken.status).toBe(422);
    expect(broken.material.metadata.error.code).toBe('CORRUPT');
  });
});

describe('image', () => {
  it('reads the words in the picture, its size and format, and stores a preview and a thumbnail', async () => {
    const png = await makeTextImage(['Mitosis divides the nucleus'], { width: 1000 });
    const { status, material } = await processFile(png, 'mitosis.png');
    expect(status).toBe(201);
    expect(material.contentType).toBe('image');
    expect(material.metadata).toMatchObject({ width: 1000, height: 192, format: 'png' });
    expect(material.metadata.extractedText).toMatch(/Mitosis divides the nucleus/);
    expect(material.metadata.preview).toMatchObject({ width: 1000, height: 192, format: 'webp' });
    expect(material.metadata.thumbnail).toMatchObject({ width: 320, format: 'webp' });
    expect(await fetchImage(material.metadata.preview.s3Url)).toMatchObject({ format: 'webp', width: 1000 });
    expect(await fetchImage(material.metadata.thumbnail.s3Url)).toMatchObject({ format: 'webp', width: 320 });
    expect(material.metadata.images).toEqual([]);
    expectMeasured(material.metadata);
  });

  it('ends a decompression bomb error/TOO_LARGE', async () => {
    const { status, material } = await processFile(makeImageBomb(), 'bomb.png');
    expect(status).toBe(422);
    expect(material.metadata.error.code).toBe('TOO_LARGE');
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImageBomb, makeTextImage } from '@quire/testkit';
import { createImageExtractor, PREVIEW_EDGE, THUMBNAIL_EDGE } from './image.ts';

const extractImage = createImageExtractor({ ocrLanguages: ['eng'] });

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-image-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function extract(name: string, body: Buffer) {
  const outputDir = path.join(dir, name);
  await fs.mkdir(outputDir);
  const input = path.join(dir, `${name}.img`);
  await fs.writeFile(input, body);
  return { result: await extractImage(input, { extractImages: false, outputDir }), outputDir };
}

describe('extractImage', () => {
  it('reads the words drawn into an image and describes it', async () => {
    const png = await makeTextImage(['Photosynthesis needs sunlight', 'Chlorophyll absorbs red light'], {
      width: 1100,
    });
    const { result } = await extract('words', png);
    expect(result.text).toMatch(/Photosynthesis needs sunlight/);
    expect(result.text).toMatch(/Chlorophyll absorbs red light/);
    expect(result.segments).toEqual([{ text: result.text, source: 'ocr', confidence: expect.any(Number) }]);
    expect(result.metadata).toMatchObject({
      width: 1100,
      height: 288,
      format: 'png',
      ocr: { engine: 'tesseract', language: 'eng' },
    });
  });

  it('makes a web preview and a thumbnail, never larger than the original', async () => {
    const big = await sharp({ create: { width: 4000, height: 2000, channels: 3, background: '#88aa44' } })
      .jpeg()
      .toBuffer();
    const { result, outputDir } = await extract('renditions', big);
    expect(result.metadata).toMatchObject({ width: 4000, height: 2000, format: 'jpeg' });
    expect(result.images).toEqual([
      { file: 'preview.webp', role: 'preview', width: PREVIEW_EDGE, height: PREVIEW_EDGE / 2, format: 'webp' },
      { file: 'thumbnail.webp', role: 'thumbnail', width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE / 2, format: 'webp' },
    ]);
    expect(await sharp(path.join(outputDir, 'thumbnail.webp')).metadata()).toMatchObject({
      format: 'webp',
      width: THUMBNAIL_EDGE,
    });
    // Nothing to read in a plain green picture, and nothing is claimed.
    expect(result.text).toBe('');

    const small = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect((await extract('small', small)).result.images.map((i) => [i.width, i.height])).toEqual([
      [200, 100],
      [200, 100],
    ]);
  });

  it('applies the EXIF orientation: a portrait photo stored sideways is reported and rendered upright', async () => {
    const sideways = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { result, outputDir } = await extract('oriented', sideways);
    expect(result.metadata).toMatchObject({ width: 300, height: 600, orientation: 6 });
    expect(await sharp(path.join(outputDir, 'preview.webp')).metadata()).toMatchObject({ width: 300, height: 600 });
  });

  it('refuses a decompression bomb as TOO_LARGE and an undecodable file as CORRUPT', async () => {
    const bomb = makeImageBomb(30_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(extract('bomb', bomb)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    const png = await makeTextImage(['cut short']);
    await expect(extract('truncated', png.subarray(0, 100))).rejects.toMatchObject({ code: 'CORRUPT' });
  });
});

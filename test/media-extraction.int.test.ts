import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  noise,
  sceneVideo,
  speechAudio,
  startTestStack,
  uploadAndProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  // S3 keeps each object's content type (the local driver serves every object as octet-stream).
  stack = await startTestStack({ storage: 's3' });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

async function download(url: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

describe('audio and video through the api and the worker', () => {
  it('processes an MP3 into its stream facts and transcript', async () => {
    const res = await uploadAndProcess(tenant, await speechAudio('mp3'), 'goforward.mp3', { type: 'audio/mpeg' });
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material).toMatchObject({ status: 'active', contentType: 'audio' });
    const { metadata } = material;
    expect(metadata.durationSeconds).toBeCloseTo(2.8, 0);
    expect(metadata).toMatchObject({
      codecs: { audio: 'mp3' },
      sampleRate: 16000,
      channels: 1,
      transcription: { engine: 'pocketsphinx' },
    });
    expect(metadata.bitrate).toBeGreaterThan(0);
    expect(metadata.extractedText).toContain('forward');
    expect(metadata.extractedText).toMatch(/\b(ten|meters)\b/);
    expect(metadata.wordCount).toBeGreaterThanOrEqual(2);
    expect(metadata.images).toEqual([]);
    expect(metadata.thumbnail).toBeUndefined();
    expect(metadata.processingMs).toBeGreaterThan(0);
  });

  it('processes an MP4 into facts, scene keyframes with times, a thumbnail and the soundtrack’s words, all in storage', async () => {
    const video = await sceneVideo({ colors: ['white', 'navy', 'yellow'], sceneSeconds: 2, speech: 'goforward' });
    const res = await uploadAndProcess(tenant, video, 'scenes.mp4', { type: 'video/mp4' });
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material).toMatchObject({ status: 'active', contentType: 'video' });
    const { metadata } = material;
    expect(metadata.durationSeconds).toBeCloseTo(6, 1);
    expect(metadata).toMatchObject({ codecs: { video: 'h264', audio: 'aac' }, width: 320, height: 240, frameRate: 25 });
    expect(metadata.extractedText).toContain('forward');

    const keyframes = metadata.images as {
      kind: string;
      timestampMs: number;
      s3Url: string;
      width: number;
      height: number;
    }[];
    expect(keyframes.map((k) => k.kind)).toEqual(['keyframe', 'keyframe', 'keyframe']);
    [0, 2000, 4000].forEach((expected, i) =>
      expect(Math.abs(keyframes[i]!.timestampMs - expected)).toBeLessThanOrEqual(80),
    );
    let stored = 0;
    for (const image of [...keyframes, metadata.thumbnail]) {
      const { status, type, body } = await download(image.s3Url);
      expect(status).toBe(200);
      expect(type).toBe('image/webp');
      const decoded = await sharp(body).metadata();
      expect([decoded.format, decoded.width, decoded.height]).toEqual(['webp', image.width, image.height]);
      stored += body.length;
    }
    expect(metadata.thumbnail).toMatchObject({ width: 320, height: 240 });
    // Besides the pictures, the transcript's segments that `/text` serves.
    const segments = await tenant.request(`/api/v1/materials/${material._id}/text?format=ndjson`);
    expect(segments.status).toBe(200);
    stored += Buffer.byteLength(await segments.text());
    expect(material.usage.derivedBytes).toBe(stored);
    expect(material.usage.derivedBytes).toBeGreaterThan(0);
  });

  it('ends a truncated MP4 and noise behind an MP3 frame header in error/CORRUPT with a readable message', async () => {
    const truncated = (await sceneVideo({ colors: ['white', 'navy'], sceneSeconds: 1, speech: 'goforward' })).subarray(
      0,
      4000,
    );
    // Noise alone is refused at upload (415); behind an MPEG audio frame header it sniffs as audio/mpeg.
    const behindMp3Header = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), noise(30_000)]);
    for (const [body, name, type] of [
      [truncated, 'cut.mp4', 'video/mp4'],
      [behindMp3Header, 'noise.mp3', 'audio/mpeg'],
    ] as const) {
      const res = await uploadAndProcess(tenant, body, name, { type });
      expect(res.status).toBe(422);
      const failed = await res.json();
      expect(failed.material.status).toBe('error');
      expect(failed.material.metadata.error).toMatchObject({
        code: 'CORRUPT',
        message: expect.stringMatching(/^The media could not be read: \S/),
      });
      expect(failed.material.metadata.error.message).not.toMatch(/quire-job-/);
    }
    expect((await uploadAndProcess(tenant, noise(30_000), 'noise.mp3', { type: 'audio/mpeg' })).status).toBe(415);
  });
});

describe('with SPEECH_ENGINE=none', () => {
  let quiet: TestStack;
  let quietTenant: Tenant;
  beforeAll(async () => {
    quiet = await startTestStack({ config: { SPEECH_ENGINE: 'none' } });
    quietTenant = await quiet.newTenant();
  });
  afterAll(() => quiet?.close());

  it('says that no engine is configured rather than storing an empty transcript as if heard', async () => {
    const res = await uploadAndProcess(quietTenant, await speechAudio('ogg'), 'goforward.ogg', { type: 'audio/ogg' });
    expect(res.status).toBe(201);
    const { metadata } = await res.json();
    expect(metadata.transcription).toEqual({ engine: 'none', reason: 'no speech engine configured' });
    expect(metadata.extractedText).toBe('');
    expect(metadata.codecs).toEqual({ audio: 'vorbis' });
  });
});

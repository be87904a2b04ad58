import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noise, sceneVideo, speechAudio } from '@quire/testkit';
import { createMediaExtractor, MAX_KEYFRAMES } from './media.ts';
import { pocketsphinxEngine } from './pocketsphinx.ts';
import { noSpeechEngine } from './speech-engine.ts';
import type { ExtractOptions } from './types.ts';

const TOOLS = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' };
const pocketsphinx = pocketsphinxEngine({
  binaryPath: 'pocketsphinx_continuous',
  modelDir: '/usr/share/pocketsphinx/model/en-us',
});
const extract = createMediaExtractor(TOOLS, pocketsphinx);

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-media-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

let job = 0;
async function input(body: Buffer, extractImages = true): Promise<[string, ExtractOptions & { progress: number[] }]> {
  const jobDir = path.join(dir, `job-${++job}`);
  await fs.mkdir(path.join(jobDir, 'out'), { recursive: true });
  // Named like the worker names it: no extension to lean on.
  const inputPath = path.join(jobDir, 'input');
  await fs.writeFile(inputPath, body);
  const progress: number[] = [];
  return [
    inputPath,
    { extractImages, outputDir: path.join(jobDir, 'out'), onProgress: (p) => progress.push(p), progress },
  ];
}

const expectGoForward = (text: string) => {
  expect(text).toContain('forward');
  expect(text).toMatch(/\b(ten|meters)\b/);
};

describe('media extractor: audio', () => {
  it('reads an MP3’s stream facts and transcribes its speech with timed segments', async () => {
    const [inputPath, options] = await input(await speechAudio('mp3'));
    const result = await extract(inputPath, options);

    expect(result.metadata).toMatchObject({
      codecs: { audio: 'mp3' },
      container: 'mp3',
      sampleRate: 16000,
      channels: 1,
      hasVideo: false,
    });
    expect(result.metadata.durationSeconds).toBeCloseTo(2.8, 0);
    expect(result.metadata.bitrate).toBeGreaterThan(0);
    expectGoForward(result.text);
    expect(result.metadata.transcription).toMatchObject({
      engine: 'pocketsphinx',
      segmentCount: result.segments.length,
    });
    expect(result.images).toEqual([]);
    let previousEnd = 0;
    for (const s of result.segments) {
      expect(s.startMs!).toBeGreaterThanOrEqual(previousEnd);
      expect(s.endMs!).toBeGreaterThan(s.startMs!);
      expect(s.endMs!).toBeLessThanOrEqual(2900);
      previousEnd = s.endMs!;
    }
    expect(result.text).toBe(result.segments.map((s) => s.text).join('\n'));
  });

  it('reports progress as the recogniser gets through a longer recording', async () => {
    const [inputPath, options] = await input(await speechAudio('ogg', ['librivox0870', 'goforward', 'librivox0880']));
    const result = await extract(inputPath, options);
    expect(result.segments.length).toBeGreaterThanOrEqual(3);
    expectGoForward(result.text);
    expect(result.segments.map((s) => s.startMs)).toEqual(
      [...result.segments.map((s) => s.startMs!)].sort((a, b) => a - b),
    );
    // Probing and conversion end at 7 %; each recognised utterance moves progress on from there.
    const duringSpeech = options.progress.filter((p) => p > 10 && p < 100);
    expect(new Set(duringSpeech.map(Math.round)).size).toBeGreaterThanOrEqual(2);
    expect(options.progress).toEqual([...options.progress].sort((a, b) => a - b));
  });

  it('says no engine is configured instead of pretending to have heard nothing', async () => {
    const [inputPath, options] = await input(await speechAudio('wav'));
    const result = await createMediaExtractor(TOOLS, noSpeechEngine)(inputPath, options);
    expect(result.text).toBe('');
    expect(result.metadata.transcription).toEqual({ engine: 'none', reason: 'no speech engine configured' });
    expect(result.metadata.codecs).toEqual({ audio: 'pcm_s16le' });
  });

  it('ends CORRUPT, quickly, for noise named like audio and for a truncated MP4', async () => {
    const truncated = (await sceneVideo({ colors: ['white', 'navy'], sceneSeconds: 1, speech: 'goforward' })).subarray(
      0,
      4000,
    );
    // Noise behind an MPEG audio frame header is what the api lets through as audio/mpeg.
    const behindMp3Header = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), noise(40_000)]);
    for (const body of [noise(40_000), behindMp3Header, truncated]) {
      const [inputPath, options] = await input(body);
      const started = Date.now();
      const error = await extract(inputPath, options).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toMatchObject({
        code: 'CORRUPT',
        message: expect.stringMatching(/^The media could not be read: \S/),
      });
      expect((error as Error).message).not.toContain(inputPath);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });
});

describe('media extractor: video', () => {
  it('finds one keyframe per scene at its start, a thumbnail, the stream facts and the soundtrack’s words', async () => {
    const [inputPath, options] = await input(
      await sceneVideo({ colors: ['white', 'navy', 'yellow'], sceneSeconds: 2, speech: 'goforward' }),
    );
    const result = await extract(inputPath, options);

    expect(result.metadata).toMatchObject({
      codecs: { video: 'h264', audio: 'aac' },
      width: 320,
      height: 240,
      frameRate: 25,
      hasAudio: true,
      hasVideo: true,
    });
    expect(result.metadata.durationSeconds).toBeCloseTo(6, 1);
    expectGoForward(result.text);

    const keyframes = result.images.filter((i) => i.role === 'keyframe');
    expect(keyframes).toHaveLength(3);
    [0, 2000, 4000].forEach((expected, i) =>
      expect(Math.abs(keyframes[i]!.timestampMs! - expected)).toBeLessThanOrEqual(80),
    );
    const thumbnails = result.images.filter((i) => i.role === 'thumbnail');
    expect(thumbnails).toHaveLength(1);
    expect(thumbnails[0]).toMatchObject({ width: 320, height: 240, format: 'webp' });

    // Each keyframe shows its scene: white, then navy, then yellow.
    const [white, navy, yellow] = await Promise.all(
      keyframes.map(async (k) =>
        (await sharp(path.join(options.outputDir, k.file)).stats()).channels.map((c) => Math.round(c.mean)),
      ),
    );
    expect(white!.every((v) => v > 230)).toBe(true);
    expect(navy![2]! - navy![0]!).toBeGreaterThan(80);
    expect(yellow![0]! > 200 && yellow![1]! > 200 && yellow![2]! < 60).toBe(true);
    for (const image of result.images)
      expect((await fs.stat(path.join(options.outputDir, image.file))).size).toBeGreaterThan(0);
    // The speech WAV is scratch, not an image to store.
    expect((await fs.readdir(options.outputDir)).sort()).toEqual(result.images.map((i) => i.file).sort());
  });

  it('keeps the keyframe count bounded and spread over a video of many cuts', async () => {
    const colors = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'black' : 'white'));
    const [inputPath, options] = await input(await sceneVideo({ colors, sceneSeconds: 0.5, size: '160x120' }));
    const result = await createMediaExtractor(TOOLS, noSpeechEngine)(inputPath, options);
    const times = result.images.filter((i) => i.role === 'keyframe').map((k) => k.timestampMs!);
    expect(times.length).toBeLessThanOrEqual(MAX_KEYFRAMES);
    expect(times.length).toBeGreaterThanOrEqual(MAX_KEYFRAMES / 2);
    expect(times.at(-1)).toBeGreaterThan(15_000);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('makes only the thumbnail without extractImages, and says when there is no audio to transcribe', async () => {
    const [inputPath, options] = await input(await sceneVideo({ colors: ['white', 'navy'], sceneSeconds: 1 }), false);
    const result = await extract(inputPath, options);
    expect(result.images.map((i) => i.role)).toEqual(['thumbnail']);
    expect(result.metadata).toMatchObject({ hasAudio: false, codecs: { video: 'h264' } });
    expect(result.metadata.transcription).toEqual({ engine: 'none', reason: 'the media has no audio stream' });
    expect(result.text).toBe('');
  });
});

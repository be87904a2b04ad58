import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { createMediaTools, type MediaProbe, type MediaTools } from './ffmpeg.ts';
import type { SpeechEngine } from './speech-engine.ts';
import { ExtractError, type ExtractedImage, type Extractor, type TextSegment } from './types.ts';

/** Bounds the keyframes of one video, so an hour of fast cuts does not flood storage. */
export const MAX_KEYFRAMES = 20;
/** ffmpeg scene score above which a frame starts a new scene: hard cuts score near 1, slide changes well above this. */
export const SCENE_THRESHOLD = 0.3;
const KEYFRAME_EDGE = 1280;
const THUMBNAIL_EDGE = 320;
/** The thumbnail is taken a little in, past fade-ins and black leaders, but never later than this. */
const THUMBNAIL_MAX_SECONDS = 5;
const SPEECH_WAV = 'speech.wav';

/** Audio and video: stream facts from ffprobe, a thumbnail and scene keyframes for video, and a transcript. */
export function createMediaExtractor(
  paths: { ffmpegPath: string; ffprobePath: string },
  engine: SpeechEngine,
): Extractor {
  const tools = createMediaTools(paths);
  return async (inputPath, options) => {
    const report = options.onProgress ?? (() => {});
    const probe = await tools.probe(inputPath);
    if (!probe.audio && !probe.video) throw new ExtractError('CORRUPT', 'The file holds no audio or video stream');
    report(2);

    const durationMs = (probe.durationSeconds ?? 0) * 1000;
    const phase = (from: number, to: number) => (doneMs: number) => {
      if (durationMs > 0) report(from + Math.min(1, doneMs / durationMs) * (to - from));
    };
    // Progress shares: probing, the video's images, converting the audio, then speech, which takes longest.
    const imagesUntil = probe.video ? (options.extractImages ? 30 : 5) : 2;
    const images = probe.video ? await videoImages(tools, inputPath, probe, options, phase(5, imagesUntil)) : [];
    report(imagesUntil);

    const transcript = await transcribe(
      tools,
      engine,
      inputPath,
      probe,
      options.outputDir,
      phase(imagesUntil, imagesUntil + 5),
      phase(imagesUntil + 5, 99),
    );
    return {
      text: transcript.segments.map((s) => s.text).join('\n'),
      segments: transcript.segments,
      images,
      metadata: { ...describeProbe(probe), transcription: transcript.about },
    };
  };
}

async function videoImages(
  tools: MediaTools,
  inputPath: string,
  probe: MediaProbe,
  options: { extractImages: boolean; outputDir: string },
  onKeyframeMs: (doneMs: number) => void,
): Promise<ExtractedImage[]> {
  const video = probe.video!;
  const duration = probe.durationSeconds ?? 0;
  const thumbnail = 'thumbnail.webp';
  const thumbnailPath = path.join(options.outputDir, thumbnail);
  const wrote =
    (await tools.frameAt(
      inputPath,
      video.index,
      thumbnailPath,
      Math.min(duration * 0.1, THUMBNAIL_MAX_SECONDS),
      THUMBNAIL_EDGE,
    )) || (await tools.frameAt(inputPath, video.index, thumbnailPath, 0, THUMBNAIL_EDGE));
  if (!wrote) throw new ExtractError('CORRUPT', 'No frame of the video could be decoded');
  const images = [await imageEntry(options.outputDir, thumbnail, { role: 'thumbnail' })];
  if (!options.extractImages) return images;

  const keyframes = await tools.keyframes(
    inputPath,
    video.index,
    options.outputDir,
    {
      max: MAX_KEYFRAMES,
      sceneThreshold: SCENE_THRESHOLD,
      minGapSeconds: duration > 0 ? duration / MAX_KEYFRAMES : 1,
      maxEdge: KEYFRAME_EDGE,
    },
    (seconds) => onKeyframeMs(seconds * 1000),
  );
  for (const { file, timestampMs } of keyframes)
    images.push(await imageEntry(options.outputDir, file, { role: 'keyframe', timestampMs }));
  return images;
}

async function imageEntry(
  dir: string,
  file: string,
  extra: Pick<ExtractedImage, 'role' | 'timestampMs'>,
): Promise<ExtractedImage> {
  const { width = 0, height = 0 } = await sharp(path.join(dir, file)).metadata();
  return { file, width, height, format: 'webp', ...extra };
}

async function transcribe(
  tools: MediaTools,
  engine: SpeechEngine,
  inputPath: string,
  probe: MediaProbe,
  outputDir: string,
  onConvertedMs: (doneMs: number) => void,
  onHeardMs: (doneMs: number) => void,
): Promise<{ segments: TextSegment[]; about: Record<string, unknown> }> {
  if (engine.name === 'none') return { segments: [], about: { engine: 'none', reason: 'no speech engine configured' } };
  if (!probe.audio) return { segments: [], about: { engine: 'none', reason: 'the media has no audio stream' } };

  // In outputDir so that the worker's cleanup removes it even when this process is killed.
  const wavPath = path.join(outputDir, SPEECH_WAV);
  await tools.toSpeechWav(inputPath, probe.audio.index, wavPath, (seconds) => onConvertedMs(seconds * 1000));
  const started = Date.now();
  try {
    const segments = await engine.transcribe(wavPath, { onProgress: onHeardMs });
    return {
      segments,
      about: { engine: engine.name, segmentCount: segments.length, transcribeMs: Date.now() - started },
    };
  } catch (err) {
    // The WAV is ffmpeg's own output, so a failing engine is the machine's problem: keep the rest, say why.
    return {
      segments: [],
      about: { engine: engine.name, failed: true, reason: (err as Error)?.message ?? String(err) },
    };
  } finally {
    await fs.rm(wavPath, { force: true });
  }
}

function describeProbe(probe: MediaProbe): Record<string, unknown> {
  const { audio, video } = probe;
  const metadata: Record<string, unknown> = {
    durationSeconds: probe.durationSeconds !== undefined ? Math.round(probe.durationSeconds * 1000) / 1000 : undefined,
    bitrate: probe.bitrate,
    container: probe.container,
    codecs: { ...(audio ? { audio: audio.codec } : {}), ...(video ? { video: video.codec } : {}) },
    hasAudio: Boolean(audio),
    hasVideo: Boolean(video),
  };
  if (audio)
    Object.assign(metadata, { sampleRate: audio.sampleRate, channels: audio.channels, audioBitrate: audio.bitrate });
  if (video)
    Object.assign(metadata, {
      width: video.width,
      height: video.height,
      frameRate: video.frameRate,
      videoBitrate: video.bitrate,
    });
  return Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined));
}

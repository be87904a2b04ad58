import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpeg, { type FfmpegCommand, type FfprobeData, type FfprobeStream } from 'fluent-ffmpeg';
import { ExtractError } from './types.ts';

/**
 * Only the file protocol: a playlist, reference movie or key URI inside an upload must never make ffmpeg open
 * a network connection on the worker's behalf.
 */
const LOCAL_ONLY = ['-protocol_whitelist', 'file'];
const SHOWINFO_TIME = /Parsed_showinfo.*\bn:\s*\d+\s+pts:\s*-?\d+\s+pts_time:\s*(-?[\d.]+)/;
const SILENCE_START = /\bsilence_start:\s*(-?[\d.]+)/;
const SILENCE_END = /\bsilence_end:\s*(-?[\d.]+)/;
/** Speech engines' input: 16 kHz mono signed 16-bit little-endian samples. */
export const SPEECH_SAMPLE_RATE = 16_000;

export interface Silence {
  startMs: number;
  endMs: number;
}

export interface SilenceOptions {
  /** Level below which audio counts as silent, in dB relative to full scale. */
  noiseDb: number;
  /** Shortest quiet stretch that counts as a silence. */
  minSeconds: number;
}

export interface MediaProbe {
  durationSeconds?: number;
  /** Overall bits per second of the container. */
  bitrate?: number;
  container?: string;
  audio?: { index: number; codec: string; sampleRate?: number; channels?: number; bitrate?: number };
  video?: { index: number; codec: string; width: number; height: number; frameRate?: number; bitrate?: number };
}

export interface KeyframeOptions {
  max: number;
  /** ffmpeg's scene score (0..1) above which a frame starts a new scene. */
  sceneThreshold: number;
  /** Scene changes closer than this to the previous keyframe are skipped, spreading the bounded count over the video. */
  minGapSeconds: number;
  maxEdge: number;
}

/** ffmpeg and ffprobe, reading only the local file they are given; nothing else in quire runs them. */
export interface MediaTools {
  probe(inputPath: string): Promise<MediaProbe>;
  /**
   * Duration and first audio stream only, killed past `timeoutMs`; undefined when ffprobe cannot tell (the
   * sandboxed extraction then says what is wrong with the file).
   */
  probeSpeech(
    inputPath: string,
    timeoutMs: number,
  ): Promise<{ durationSeconds?: number; audioIndex?: number } | undefined>;
  /** Writes the audio stream as the 16 kHz mono 16-bit WAV speech engines expect. */
  toSpeechWav(
    inputPath: string,
    audioIndex: number,
    wavPath: string,
    onSeconds?: (done: number) => void,
  ): Promise<void>;
  /**
   * Writes the audio stream as raw 16 kHz mono 16-bit samples (cut into chunks by byte offset, so it is decoded
   * once) and finds its silences in the same pass. Killed past `timeoutMs` or when `signal` aborts.
   */
  toSpeechPcm(
    inputPath: string,
    audioIndex: number,
    pcmPath: string,
    options: SilenceOptions & { timeoutMs: number; signal?: AbortSignal; onSeconds?: (done: number) => void },
  ): Promise<Silence[]>;
  /** The first frame and every scene change after it, as webp files in `outputDir`, with their times. */
  keyframes(
    inputPath: string,
    videoIndex: number,
    outputDir: string,
    options: KeyframeOptions,
    onSeconds?: (done: number) => void,
  ): Promise<{ file: string; timestampMs: number }[]>;
  /** One frame at `atSeconds` as webp; false when the video has no decodable frame there. */
  frameAt(
    inputPath: string,
    videoIndex: number,
    outputPath: string,
    atSeconds: number,
    maxEdge: number,
  ): Promise<boolean>;
}

export function createMediaTools(paths: { ffmpegPath: string; ffprobePath: string }): MediaTools {
  // fluent-ffmpeg keeps binary paths in a module-wide cache, so every command sets them again.
  const command = (inputPath: string, inputOptions: string[] = []) =>
    ffmpeg({ stdoutLines: 20 })
      .setFfmpegPath(paths.ffmpegPath)
      .input(localInput(inputPath))
      .inputOptions(['-nostdin', ...LOCAL_ONLY, ...inputOptions]);

  return {
    async probe(inputPath) {
      const data = await new Promise<FfprobeData>((resolve, reject) => {
        ffmpeg(localInput(inputPath))
          .setFfprobePath(paths.ffprobePath)
          .ffprobe(['-v', 'error', ...LOCAL_ONLY], (err: unknown, probed: FfprobeData) =>
            err ? reject(err) : resolve(probed),
          );
      }).catch((err: unknown) => {
        throw toolError('ffprobe', err, inputPath, (err as Error)?.message?.split('\n').slice(1).join('\n'));
      });
      return describe(data);
    },

    async toSpeechWav(inputPath, audioIndex, wavPath, onSeconds) {
      const cmd = command(inputPath)
        .outputOptions(['-map', `0:${audioIndex}`, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le'])
        .output(wavPath);
      await run(cmd, inputPath, { onSeconds });
    },

    async probeSpeech(inputPath, timeoutMs) {
      const args = [
        '-v',
        'error',
        ...LOCAL_ONLY,
        '-of',
        'json',
        '-show_format',
        '-show_streams',
        localInput(inputPath),
      ];
      const said = await promisify(execFile)(paths.ffprobePath, args, {
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      }).catch(() => undefined);
      if (!said) return undefined;
      try {
        const probe = describe(JSON.parse(said.stdout) as FfprobeData);
        return { durationSeconds: probe.durationSeconds, audioIndex: probe.audio?.index };
      } catch {
        return undefined;
      }
    },

    async toSpeechPcm(inputPath, audioIndex, pcmPath, options) {
      const silences: Silence[] = [];
      let openStart: number | undefined;
      const cmd = ffmpeg({ stdoutLines: 20, timeout: Math.ceil(options.timeoutMs / 1000) })
        .setFfmpegPath(paths.ffmpegPath)
        .input(localInput(inputPath))
        .inputOptions(['-nostdin', ...LOCAL_ONLY])
        .outputOptions([
          '-map',
          `0:${audioIndex}`,
          '-af',
          `silencedetect=noise=${options.noiseDb}dB:d=${options.minSeconds}`,
          '-ac',
          '1',
          '-ar',
          String(SPEECH_SAMPLE_RATE),
          '-f',
          's16le',
        ])
        .output(pcmPath);
      const abort = () => cmd.kill('SIGKILL');
      options.signal?.addEventListener('abort', abort);
      try {
        await run(cmd, inputPath, {
          onSeconds: options.onSeconds,
          onLine: (line) => {
            const start = SILENCE_START.exec(line);
            if (start) openStart = Math.max(0, Math.round(Number(start[1]) * 1000));
            const end = SILENCE_END.exec(line);
            if (end && openStart !== undefined) {
              silences.push({ startMs: openStart, endMs: Math.round(Number(end[1]) * 1000) });
              openStart = undefined;
            }
          },
        });
      } catch (err) {
        options.signal?.throwIfAborted();
        if (/ran into a timeout/.test((err as Error)?.message ?? ''))
          throw new ExtractError('TIMEOUT', `Decoding the audio took longer than ${options.timeoutMs} ms`);
        throw err;
      } finally {
        options.signal?.removeEventListener('abort', abort);
      }
      // Silent to the end: the stretch closes where the samples do.
      if (openStart !== undefined) {
        const { size } = await fs.stat(pcmPath);
        silences.push({ startMs: openStart, endMs: Math.round((size / 2 / SPEECH_SAMPLE_RATE) * 1000) });
      }
      return silences;
    },

    async keyframes(inputPath, videoIndex, outputDir, options, onSeconds) {
      const times: number[] = [];
      const select = `select='eq(n\\,0)+gt(scene\\,${options.sceneThreshold})*gte(t-prev_selected_t\\,${options.minGapSeconds})'`;
      const cmd = command(inputPath)
        .outputOptions([
          '-map',
          `0:${videoIndex}`,
          '-vf',
          `${select},showinfo,${fitWithin(options.maxEdge)}`,
          '-fps_mode',
          'vfr',
          '-frames:v',
          String(options.max),
          '-c:v',
          'libwebp',
          '-quality',
          '80',
        ])
        .output(path.join(outputDir, 'keyframe-%03d.webp'));
      await run(cmd, inputPath, {
        onSeconds,
        onLine: (line) => {
          const match = SHOWINFO_TIME.exec(line);
          if (match) times.push(Number(match[1]));
        },
      });
      // showinfo may log a frame the muxer no longer wrote once -frames:v was reached; pair by what is on disk.
      const keyframes = [];
      for (const [i, seconds] of times.slice(0, options.max).entries()) {
        const file = `keyframe-${String(i + 1).padStart(3, '0')}.webp`;
        if (await exists(path.join(outputDir, file))) keyframes.push({ file, timestampMs: Math.round(seconds * 1000) });
      }
      return keyframes;
    },

    async frameAt(inputPath, videoIndex, outputPath, atSeconds, maxEdge) {
      const cmd = command(inputPath, ['-ss', atSeconds.toFixed(3)])
        .outputOptions([
          '-map',
          `0:${videoIndex}`,
          '-frames:v',
          '1',
          '-vf',
          fitWithin(maxEdge),
          '-c:v',
          'libwebp',
          '-quality',
          '80',
        ])
        .output(outputPath);
      await run(cmd, inputPath, {});
      return exists(outputPath);
    },
  };
}

function localInput(inputPath: string): string {
  return `file:${path.resolve(inputPath)}`;
}

function fitWithin(edge: number): string {
  return `scale='min(iw,${edge})':'min(ih,${edge})':force_original_aspect_ratio=decrease`;
}

function run(
  cmd: FfmpegCommand,
  inputPath: string,
  hooks: { onSeconds?: (done: number) => void; onLine?: (line: string) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (hooks.onLine) cmd.on('stderr', hooks.onLine);
    if (hooks.onSeconds) {
      const report = hooks.onSeconds;
      cmd.on('progress', (progress: { timemark?: string }) => {
        const seconds = timemarkSeconds(progress.timemark);
        if (seconds !== undefined) report(seconds);
      });
    }
    cmd.on('error', (err: Error) => reject(toolError('ffmpeg', err, inputPath)));
    cmd.on('end', () => resolve());
    cmd.run();
  });
}

/** A tool that is missing is the machine's fault; anything else it says about the input is the file's. */
function toolError(tool: string, err: unknown, inputPath: string, detail?: string): ExtractError {
  const error = err as NodeJS.ErrnoException;
  if (error?.code === 'ENOENT' || /\bENOENT\b/.test(error?.message ?? '')) {
    return new ExtractError('INTERNAL', `${tool} could not be started; check FFMPEG_PATH / FFPROBE_PATH`);
  }
  const said = (detail ?? error?.message ?? String(err))
    .split(/\r?\n/)
    .map((line) =>
      line
        .replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/, '')
        .replaceAll(localInput(inputPath), 'the file')
        .trim(),
    )
    .filter(Boolean)
    .join('; ');
  return new ExtractError('CORRUPT', `The media could not be read: ${said.slice(0, 300) || `${tool} failed`}`);
}

function describe(data: FfprobeData): MediaProbe {
  const video = data.streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  const streamDuration = Math.max(0, ...data.streams.map((s) => positive(s.duration) ?? 0));
  const probe: MediaProbe = {
    durationSeconds: positive(data.format.duration) ?? (streamDuration || undefined),
    bitrate: positive(data.format.bit_rate),
    container: typeof data.format.format_name === 'string' ? data.format.format_name : undefined,
  };
  if (audio) {
    probe.audio = {
      index: audio.index,
      codec: audio.codec_name ?? 'unknown',
      sampleRate: positive(audio.sample_rate),
      channels: positive(audio.channels),
      bitrate: positive(audio.bit_rate),
    };
  }
  if (video && positive(video.width) && positive(video.height)) {
    const quarterTurn = Math.abs(rotation(video)) % 180 === 90;
    probe.video = {
      index: video.index,
      codec: video.codec_name ?? 'unknown',
      width: quarterTurn ? video.height! : video.width!,
      height: quarterTurn ? video.width! : video.height!,
      frameRate: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
      bitrate: positive(video.bit_rate),
    };
  }
  return probe;
}

/** Phones store portrait video as landscape frames plus a rotation that players (and ffmpeg) apply. */
function rotation(stream: FfprobeStream): number {
  return Number(stream.rotation ?? stream.tags?.rotate ?? 0) || 0;
}

function frameRate(value: unknown): number | undefined {
  const [num, den] = String(value ?? '')
    .split('/')
    .map(Number);
  if (!num || !den) return undefined;
  return positive(Math.round((num / den) * 1000) / 1000);
}

function positive(value: unknown): number | undefined {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function timemarkSeconds(timemark: string | undefined): number | undefined {
  const match = /^(-?)(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(timemark ?? '');
  if (!match || match[1]) return undefined;
  return Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4]);
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.size > 0,
    () => false,
  );
}

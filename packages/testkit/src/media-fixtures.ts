import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TESTDATA = '/usr/share/pocketsphinx/test/data';

/**
 * Real human speech from Debian's pocketsphinx-testdata (pocketsphinx does not recognise synthetic speech).
 * `goforward` says "go forward ten meters"; the LibriVox clips are read from Sense and Sensibility.
 */
export const RECORDINGS = {
  goforward: { file: path.join(TESTDATA, 'goforward.raw'), raw: true },
  librivox0870: { file: path.join(TESTDATA, 'librivox/sense_and_sensibility_01_austen_64kb-0870.wav'), raw: false },
  librivox0880: { file: path.join(TESTDATA, 'librivox/sense_and_sensibility_01_austen_64kb-0880.wav'), raw: false },
} as const;
export type Recording = keyof typeof RECORDINGS;

function recordingInput(name: Recording): string[] {
  const { file, raw } = RECORDINGS[name];
  return raw ? ['-f', 's16le', '-ar', '16000', '-ac', '1', '-i', file] : ['-i', file];
}

async function ffmpegToBuffer(args: string[], extension: string): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-media-fixture-'));
  const output = path.join(dir, `fixture.${extension}`);
  try {
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args, output]);
    return await fs.readFile(output);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The recordings one after another, encoded as `format` (mp3, ogg, wav, m4a). */
export function speechAudio(
  format: 'mp3' | 'ogg' | 'wav' | 'm4a',
  recordings: Recording[] = ['goforward'],
): Promise<Buffer> {
  const inputs = recordings.flatMap(recordingInput);
  const concat = `${recordings.map((_, i) => `[${i}:a]`).join('')}concat=n=${recordings.length}:v=0:a=1[a]`;
  return ffmpegToBuffer([...inputs, '-filter_complex', concat, '-map', '[a]', '-ac', '1'], format);
}

/**
 * An H.264 MP4 of solid-colour scenes, `sceneSeconds` each (pick colours of different brightness: ffmpeg's
 * scene score compares luma, and red next to green barely registers), with a recording as its audio track.
 */
export function sceneVideo(options: {
  colors: string[];
  sceneSeconds: number;
  speech?: Recording;
  size?: string;
}): Promise<Buffer> {
  const { colors, sceneSeconds, size = '320x240' } = options;
  const inputs = colors.flatMap((c) => ['-f', 'lavfi', '-i', `color=c=${c}:s=${size}:r=25:d=${sceneSeconds}`]);
  const video = `${colors.map((_, i) => `[${i}:v]`).join('')}concat=n=${colors.length}:v=1:a=0[v]`;
  const audio = options.speech ? [...recordingInput(options.speech)] : [];
  const filter = options.speech ? `${video};[${colors.length}:a]apad[a]` : video;
  return ffmpegToBuffer(
    [
      ...inputs,
      ...audio,
      '-filter_complex',
      filter,
      '-map',
      '[v]',
      ...(options.speech ? ['-map', '[a]', '-c:a', 'aac'] : []),
      '-t',
      String(colors.length * sceneSeconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ],
    'mp4',
  );
}

/**
 * A recording said `times` times with `pauseSeconds` of digital silence between (and none at either end), as
 * `format`: a stand-in for a lecture whose cut points are known.
 */
export function speechWithPauses(options: {
  recording?: Recording;
  times: number;
  pauseSeconds: number;
  format?: 'mp3' | 'ogg' | 'wav' | 'm4a';
}): Promise<Buffer> {
  const { recording = 'goforward', times, pauseSeconds, format = 'wav' } = options;
  const inputs = [...recordingInput(recording), '-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono:d=${pauseSeconds}`];
  const split = `[0:a]aformat=sample_rates=16000:channel_layouts=mono,asplit=${times}${Array.from({ length: times }, (_, i) => `[s${i}]`).join('')}`;
  const pauses = `[1:a]asplit=${Math.max(1, times - 1)}${Array.from({ length: Math.max(1, times - 1) }, (_, i) => `[p${i}]`).join('')}`;
  const order = Array.from({ length: times }, (_, i) => (i < times - 1 ? `[s${i}][p${i}]` : `[s${i}]`)).join('');
  const concat = `${order}concat=n=${2 * times - 1}:v=0:a=1[a]`;
  const graph = times > 1 ? `${split};${pauses};${concat}` : `[0:a]anull[a]`;
  return ffmpegToBuffer([...inputs, '-filter_complex', graph, '-map', '[a]', '-ac', '1'], format);
}

/** Deterministic noise (xorshift32), so a test of "random bytes" is the same test on every run. */
export function noise(length: number, seed = 0x2545f491): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { loadConfig } from '@quire/config';
import { createSpeechEngine } from '@quire/extract/speech-tools';
import { materialFromRow } from '@quire/material';
import type { ServiceProcess } from '@quire/testkit/processes';
import { startBenchStack, stopProcess, type BenchStack } from './bench-stack.ts';
import { machine, printTable, reportWritten } from './results.ts';

const exec = promisify(execFile);
const TESTDATA = '/usr/share/pocketsphinx/test/data';
const LIBRIVOX = path.join(TESTDATA, 'librivox');
/** A reader's pause between sentences, long enough for the silence detection that picks the cut points. */
const PAUSE_SECONDS = 0.6;
const POLL_MS = 500;

interface Options {
  minutes: number;
  configs: { workers: number; concurrency: number }[];
  chunkSeconds?: number;
  werMinutes: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      // Length of the lecture, made of the testdata's recorded speech repeated.
      minutes: { type: 'string', default: '60' },
      // workers x WORKER_CONCURRENCY, in the order run (4 slots as 1x4; "2 processes" as 2x1).
      configs: { type: 'string', default: '1x1,1x2,2x1,1x4' },
      'chunk-seconds': { type: 'string' },
      // Length of the recording transcribed both whole and chunked for the word error rate; 0 skips it.
      'wer-minutes': { type: 'string', default: '5' },
    },
  });
  const number = (value: string | undefined, name: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number of at least 0`);
    return n;
  };
  const configs = values.configs.split(',').map((c) => {
    const [workers, concurrency] = c.split('x').map(Number);
    if (!Number.isInteger(workers) || !Number.isInteger(concurrency) || workers! < 1 || concurrency! < 1)
      throw new Error(`--configs: "${c}" is not WORKERSxCONCURRENCY`);
    return { workers: workers!, concurrency: concurrency! };
  });
  return {
    minutes: Math.max(0.1, number(values.minutes, 'minutes')),
    configs,
    ...(values['chunk-seconds'] ? { chunkSeconds: number(values['chunk-seconds'], 'chunk-seconds') } : {}),
    werMinutes: number(values['wer-minutes'], 'wer-minutes'),
  };
}

interface Recording {
  mp3: string;
  wav: string;
  seconds: number;
  reference: string[];
}

/**
 * The LibriVox clips of pocketsphinx-testdata (five sentences of Sense and Sensibility, 24.7 s, with their
 * transcriptions) one after another with a reader's pause, repeated to `minutes` (whole rounds), as the MP3
 * a lecturer would upload, the 16 kHz WAV a whole transcription reads, and the words said.
 */
export async function makeRecording(dir: string, name: string, minutes: number): Promise<Recording> {
  const lines = (await fs.readFile(path.join(LIBRIVOX, 'transcription'), 'utf8')).split('\n').filter(Boolean);
  const clips = lines.map((line) => {
    const id = /\(([^)]+)\)\s*$/.exec(line)![1]!;
    return { file: path.join(LIBRIVOX, `${id}.wav`), words: words(line.replace(/\([^)]*\)\s*$/, '')) };
  });
  const round = path.join(dir, `${name}-round.wav`);
  const inputs = clips.flatMap((c) => ['-i', c.file]);
  const padded = clips.map(
    (_, i) => `[${i}:a]aformat=sample_rates=16000:channel_layouts=mono,apad=pad_dur=${PAUSE_SECONDS}[c${i}]`,
  );
  const concat = `${clips.map((_, i) => `[c${i}]`).join('')}concat=n=${clips.length}:v=0:a=1[a]`;
  await ffmpeg([...inputs, '-filter_complex', `${padded.join(';')};${concat}`, '-map', '[a]', round]);
  const roundSeconds = await duration(round);
  const rounds = Math.max(1, Math.round((minutes * 60) / roundSeconds));
  const wav = path.join(dir, `${name}.wav`);
  const mp3 = path.join(dir, `${name}.mp3`);
  await ffmpeg(['-stream_loop', String(rounds - 1), '-i', round, '-c:a', 'pcm_s16le', wav]);
  await ffmpeg(['-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', mp3]);
  const reference = Array.from({ length: rounds }, () => clips.flatMap((c) => c.words)).flat();
  return { mp3, wav, seconds: await duration(wav), reference };
}

async function ffmpeg(args: string[]): Promise<void> {
  await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);
}

async function duration(file: string): Promise<number> {
  const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/<\/?s>/g, ' ')
    .split(/[^a-z']+/)
    .filter(Boolean);
}

/** Word error rate in percent: (substitutions + deletions + insertions) / reference words. */
export function wordErrorRate(reference: string[], hypothesis: string[]): number {
  let previous = Int32Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const current = new Int32Array(hypothesis.length + 1);
    current[0] = i;
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = previous[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    previous = current;
  }
  return Math.round((previous[hypothesis.length]! / reference.length) * 1000) / 10;
}

interface RunResult {
  workers: number;
  concurrency: number;
  status: string;
  seconds: number;
  realTimeFactor: number;
  chunks?: number;
  complete?: boolean;
  wer: number;
  loadAverage: number;
}

/** Uploads the recording while no worker runs, then times it from spawning the workers until it is no longer processing. */
async function processRecording(
  stack: BenchStack,
  apiUrl: string,
  recording: Recording,
  workers: number,
  concurrency: number,
  env: Record<string, string>,
): Promise<RunResult> {
  const tenant = await stack.newTenant();
  const form = new FormData();
  form.append('name', 'Lecture');
  form.append('file', new Blob([await fs.readFile(recording.mp3)], { type: 'audio/mpeg' }), 'lecture.mp3');
  const res = await fetch(`${apiUrl}/api/v1/materials/upload`, {
    method: 'POST',
    headers: { 'x-api-key': tenant.apiKey },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { _id: string })._id;

  const started = performance.now();
  const processes: ServiceProcess[] = await Promise.all(
    Array.from({ length: workers }, () => stack.startWorker({ ...env, WORKER_CONCURRENCY: String(concurrency) })),
  );
  const deadline = started + Math.max(600, recording.seconds * 3) * 1000;
  let row;
  for (;;) {
    row = await stack.db.selectFrom('materials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    if (row.status !== 'processing') break;
    if (performance.now() > deadline) throw new Error(`still processing after ${Math.round(deadline - started)} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const seconds = (performance.now() - started) / 1000;
  const loadAverage = machine().loadAverage[0]!;
  await Promise.all(processes.map((p) => stopProcess(p)));
  const material = materialFromRow(row);
  const transcription = material.metadata.transcription as { chunkCount?: number; complete?: boolean } | undefined;
  return {
    workers,
    concurrency,
    status: material.status === 'error' ? `error ${material.metadata.error?.code}` : material.status,
    seconds: Math.round(seconds * 10) / 10,
    realTimeFactor: Math.round((seconds / recording.seconds) * 1000) / 1000,
    ...(transcription?.chunkCount !== undefined ? { chunks: transcription.chunkCount } : {}),
    ...(transcription?.complete !== undefined ? { complete: transcription.complete } : {}),
    wer: wordErrorRate(recording.reference, words(material.metadata.extractedText ?? '')),
    loadAverage,
  };
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-media-'));
  const env: Record<string, string> = o.chunkSeconds ? { MEDIA_CHUNK_SECONDS: String(o.chunkSeconds) } : {};
  const chunkSeconds = o.chunkSeconds ?? loadConfig({}).extraction.mediaChunkSeconds;
  const stack = await startBenchStack();
  try {
    const api = await stack.startApi();
    const summary: Record<string, unknown> = {
      benchmark: 'media',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      chunkSeconds,
      measuredThrough:
        'the real api (upload while no worker runs) and worker entry points as processes, local-disk storage; time from ' +
        'spawning the workers until the material is no longer processing (database polled every 500 ms), worker start-up ' +
        'included; real-time factor = that time / the recording’s duration; WER against the testdata transcriptions.',
    };

    if (o.werMinutes > 0) {
      const short = await makeRecording(dir, 'wer', o.werMinutes);
      console.log(
        `word error rate: ${Math.round(short.seconds)} s of LibriVox speech, whole and in ${chunkSeconds} s chunks`,
      );
      const engine = createSpeechEngine(loadConfig({}).extraction);
      const wholeStarted = performance.now();
      const whole = await engine.transcribe(short.wav);
      const wholeSeconds = (performance.now() - wholeStarted) / 1000;
      const wholeWer = wordErrorRate(short.reference, words(whole.map((s) => s.text).join(' ')));
      const chunked = await processRecording(stack, api.url, short, 1, 2, env);
      const wer = {
        seconds: Math.round(short.seconds * 10) / 10,
        whole: { wer: wholeWer, seconds: Math.round(wholeSeconds * 10) / 10, load: machine().loadAverage[0] },
        chunked: { wer: chunked.wer, seconds: chunked.seconds, chunks: chunked.chunks, load: chunked.loadAverage },
        difference: Math.round((chunked.wer - wholeWer) * 10) / 10,
      };
      console.log(
        `  whole: WER ${wholeWer} % in ${wer.whole.seconds} s (one core); chunked (1x2): WER ${chunked.wer} % in ${chunked.seconds} s, ${chunked.chunks} chunks; difference ${wer.difference} points`,
      );
      summary.wordErrorRate = wer;
    }

    const lecture = await makeRecording(dir, 'lecture', o.minutes);
    console.log(
      `media benchmark: a ${Math.round(lecture.seconds / 6) / 10}-minute recording (${lecture.reference.length} words), ${chunkSeconds} s chunks`,
    );
    const results: RunResult[] = [];
    for (const c of o.configs) {
      const result = await processRecording(stack, api.url, lecture, c.workers, c.concurrency, env);
      results.push(result);
      console.log(
        `  ${c.workers} worker(s) x concurrency ${c.concurrency}: ${result.seconds} s, ${result.realTimeFactor}x real time, load average ${result.loadAverage}`,
      );
    }
    console.log('');
    printTable(
      results.map((r) => ({
        workers: r.workers,
        concurrency: r.concurrency,
        slots: r.workers * r.concurrency,
        status: r.status,
        's (from spawn)': r.seconds,
        'x real time': r.realTimeFactor,
        speedup: Math.round((results[0]!.seconds / r.seconds) * 100) / 100,
        chunks: r.chunks ?? '-',
        complete: String(r.complete ?? '-'),
        'WER %': r.wer,
        load: r.loadAverage,
      })),
    );
    summary.recording = { seconds: Math.round(lecture.seconds * 10) / 10, words: lecture.reference.length };
    summary.results = results;
    summary.totalSeconds = Math.round((performance.now() - began) / 100) / 10;
    await reportWritten('media', summary as { totalSeconds: number }, loadBefore);
  } finally {
    await stack.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

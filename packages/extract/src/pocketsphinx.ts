import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import type { SpeechEngine, TranscriptSegment } from './speech-engine.ts';

/** `-time yes` prints one line per word: `word start end confidence`, times in seconds. */
const WORD_TIMING = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/;
/** Silence, sentence marks and noise tokens: `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++UH++`. */
const FILLER = /^(<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$/;
/** The dictionary's alternate pronunciations: `the(2)`. */
const ALTERNATE = /\(\d+\)$/;
const STDERR_LINES = 20;

/**
 * Debian's pocketsphinx 5prealpha (`pocketsphinx_continuous`). It works offline with the en-US model and
 * recognises natural speech; synthetic speech (espeak-ng) comes out as noise.
 */
export function pocketsphinxEngine(settings: { binaryPath: string; modelDir: string }): SpeechEngine {
  return {
    name: 'pocketsphinx',
    async transcribe(wavPath, options = {}) {
      const model = await resolveModel(settings.modelDir);
      options.signal?.throwIfAborted();
      // Its own process group, killed whole on abort, so a timed-out chunk frees its core at once.
      const child = spawn(
        settings.binaryPath,
        ['-infile', wavPath, '-time', 'yes', '-hmm', model.hmm, '-lm', model.lm, '-dict', model.dict],
        { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
      );
      const kill = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      options.signal?.addEventListener('abort', kill);
      const stderr: string[] = [];
      readline.createInterface({ input: child.stderr }).on('line', (line) => {
        stderr.push(line);
        if (stderr.length > STDERR_LINES) stderr.shift();
      });
      const segments: TranscriptSegment[] = [];
      const parser = timingParser((segment) => {
        segments.push(segment);
        options.onProgress?.(segment.endMs);
      });
      const lines = readline.createInterface({ input: child.stdout });
      lines.on('line', (line) => parser.push(line));

      const [code] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (exitCode, signal) => resolve([exitCode, signal]));
      }).finally(() => options.signal?.removeEventListener('abort', kill));
      options.signal?.throwIfAborted();
      parser.end();
      if (code !== 0) {
        const said =
          stderr
            .filter((l) => /ERROR|FATAL/.test(l))
            .slice(-3)
            .join('; ') || stderr.slice(-3).join('; ');
        throw new Error(`pocketsphinx exited with code ${code}: ${said}`);
      }
      return segments;
    },
  };
}

/** Groups word timings into one segment per utterance (`<s>` ... `</s>`), dropping fillers. */
export function timingParser(onSegment: (segment: TranscriptSegment) => void): {
  push(line: string): void;
  end(): void;
} {
  let words: { word: string; startMs: number; endMs: number }[] = [];
  const flush = () => {
    if (words.length > 0) {
      onSegment({ text: words.map((w) => w.word).join(' '), startMs: words[0]!.startMs, endMs: words.at(-1)!.endMs });
    }
    words = [];
  };
  return {
    push(line) {
      const match = WORD_TIMING.exec(line.trim());
      if (!match) return;
      const token = match[1]!;
      if (token === '</s>') return flush();
      if (FILLER.test(token)) return;
      words.push({
        word: token.replace(ALTERNATE, ''),
        startMs: Math.round(Number(match[2]) * 1000),
        endMs: Math.round(Number(match[3]) * 1000),
      });
    },
    end: flush,
  };
}

/** Finds the acoustic model (a folder with `mdef`), the language model and the dictionary of a CMUSphinx model folder. */
async function resolveModel(modelDir: string): Promise<{ hmm: string; lm: string; dict: string }> {
  const entries = await fs.readdir(modelDir, { withFileTypes: true }).catch(() => []);
  let hmm: string | undefined;
  for (const entry of entries) {
    if (entry.isDirectory() && (await fs.stat(path.join(modelDir, entry.name, 'mdef')).catch(() => undefined))) {
      hmm = path.join(modelDir, entry.name);
      break;
    }
  }
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  // The phonetic language model next to the word one only yields phones, never words.
  const lm = files.find((f) => /\.lm(\.bin|\.dmp)?$/i.test(f) && !/phone/i.test(f));
  const dict = files.find((f) => /\.dic(t)?$/i.test(f));
  if (!hmm || !lm || !dict) {
    throw new Error(
      `${modelDir} is not a pocketsphinx model: it needs an acoustic model folder, a *.lm.bin and a *.dict`,
    );
  }
  return { hmm, lm: path.join(modelDir, lm), dict: path.join(modelDir, dict) };
}

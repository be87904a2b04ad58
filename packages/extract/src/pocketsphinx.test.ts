import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDINGS } from '@quire/testkit';
import { pocketsphinxEngine, timingParser } from './pocketsphinx.ts';
import type { TranscriptSegment } from './speech-engine.ts';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const engine = pocketsphinxEngine({ binaryPath: 'pocketsphinx_continuous', modelDir: MODEL_DIR });

let dir: string;
let goforwardWav: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-pocketsphinx-test-'));
  goforwardWav = path.join(dir, 'goforward.wav');
  await promisify(execFile)('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    's16le',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-i',
    RECORDINGS.goforward.file,
    goforwardWav,
  ]);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('timingParser', () => {
  it('makes one segment per utterance, dropping fillers and alternate-pronunciation marks', () => {
    const output = [
      'and mr john',
      '<s> 0.000 0.140 0.999100',
      'and(2) 0.150 0.360 0.216822',
      '<sil> 0.370 0.400 0.5',
      'mr 0.410 0.620 0.952080',
      '[NOISE] 0.630 0.700 0.1',
      'john 0.710 1.020 0.924864',
      '</s> 1.030 1.200 1.000000',
      'go forward',
      '<s> 7.500 7.570 1.000100',
      'go 7.580 7.740 0.966954',
      'forward 7.750 8.280 0.968309',
    ];
    const segments: TranscriptSegment[] = [];
    const parser = timingParser((s) => segments.push(s));
    for (const line of output) parser.push(line);
    expect(segments).toHaveLength(1);
    parser.end();
    expect(segments).toEqual([
      { text: 'and mr john', startMs: 150, endMs: 1020 },
      { text: 'go forward', startMs: 7580, endMs: 8280 },
    ]);
  });

  it('ignores an utterance of silence only', () => {
    const segments: TranscriptSegment[] = [];
    const parser = timingParser((s) => segments.push(s));
    for (const line of ['', '<s> 0.000 0.500 1.0', '<sil> 0.510 0.900 1.0', '</s> 0.910 1.000 1.0']) parser.push(line);
    parser.end();
    expect(segments).toEqual([]);
  });
});

describe('pocketsphinx engine', () => {
  it('transcribes a real recording with word-accurate times', async () => {
    const segments = await engine.transcribe(goforwardWav);
    const text = segments.map((s) => s.text).join(' ');
    expect(text).toContain('forward');
    expect(text).toMatch(/\b(ten|meters)\b/);
    // goforward.raw is 2.79 s long; the words sit inside it.
    for (const s of segments) {
      expect(s.startMs).toBeGreaterThanOrEqual(0);
      expect(s.endMs).toBeGreaterThan(s.startMs);
      expect(s.endMs).toBeLessThanOrEqual(2790);
    }
  });

  it('fails with pocketsphinx’s own reason when the model folder holds no model', async () => {
    const empty = path.join(dir, 'empty-model');
    await fs.mkdir(empty);
    await expect(
      pocketsphinxEngine({ binaryPath: 'pocketsphinx_continuous', modelDir: empty }).transcribe(goforwardWav),
    ).rejects.toThrow(/not a pocketsphinx model/);
    const broken = path.join(dir, 'broken-model');
    await fs.mkdir(path.join(broken, 'en-us'), { recursive: true });
    await fs.writeFile(path.join(broken, 'en-us', 'mdef'), 'not a model definition');
    await fs.copyFile(path.join(MODEL_DIR, 'cmudict-en-us.dict'), path.join(broken, 'cmudict-en-us.dict'));
    await fs.copyFile(path.join(MODEL_DIR, 'en-us.lm.bin'), path.join(broken, 'en-us.lm.bin'));
    await expect(
      pocketsphinxEngine({ binaryPath: 'pocketsphinx_continuous', modelDir: broken }).transcribe(goforwardWav),
    ).rejects.toThrow(/pocketsphinx exited with code/);
  });

  it('stops the recogniser when its signal aborts', async () => {
    const controller = new AbortController();
    const running = engine.transcribe(goforwardWav, { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toThrow(/abort/i);
  });
});

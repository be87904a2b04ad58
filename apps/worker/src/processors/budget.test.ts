import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@quire/config';
import { createMediaTools } from '@quire/extract/speech-tools';
import { budgetFor, mediaBudgetMs, OCR_PER_PAGE_MS, PER_PAGE_MS } from './budget.ts';

const config = loadConfig({ EXTRACT_TIMEOUT_MS: '600000', EXTRACT_MAX_MEMORY_MB: '1536' });
const MB = 1024 * 1024;

describe('budgetFor', () => {
  it('scales documents by size, allows more per page up to the configured ceiling', () => {
    const small = budgetFor('pdf', 100_000, config);
    const large = budgetFor('pdf', 40 * MB, config);
    expect(large.timeoutMs).toBeGreaterThan(small.timeoutMs);
    expect(small).toMatchObject({ maxMemoryMb: 1536, perPageMs: PER_PAGE_MS + OCR_PER_PAGE_MS, maxTimeoutMs: 600_000 });
    expect(budgetFor('pdf', 5_000 * MB, config).timeoutMs).toBe(600_000);
  });

  it('allows OCR time per PDF page only while OCR of PDF pages is on', () => {
    const withoutOcr = loadConfig({ EXTRACT_TIMEOUT_MS: '600000', OCR_MAX_PAGES: '0' });
    expect(budgetFor('pdf', 1_000, withoutOcr).perPageMs).toBe(PER_PAGE_MS);
    expect(budgetFor('epub', 1_000, config).perPageMs).toBe(PER_PAGE_MS);
  });

  it('gives audio and video of unknown duration the whole budget, with no page allowance', () => {
    expect(budgetFor('video', 1_000, config)).toEqual({ timeoutMs: 600_000, maxMemoryMb: 1536 });
  });

  it('scales audio and video with their duration, up to MEDIA_TIMEOUT_MAX_MS', () => {
    const capped = loadConfig({ MEDIA_TIMEOUT_MAX_MS: '3600000' });
    expect(budgetFor('audio', 1_000, capped, 60).timeoutMs).toBeLessThan(
      budgetFor('audio', 1_000, capped, 600).timeoutMs,
    );
    expect(budgetFor('video', 1_000, capped, 10 * 3600).timeoutMs).toBe(3_600_000);
  });
});

describe('a 40-minute recording with default settings', () => {
  // Measured here: pocketsphinx hears 297 s of speech in 112 s on one core (0.38x real time).
  const TRANSCRIBE_MS_PER_SECOND = 380;
  const defaults = loadConfig({});

  it('gets a budget from its ffprobe duration that fits its transcription, where the flat 10 minutes did not', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-budget-'));
    try {
      const file = path.join(dir, 'lecture.mp3');
      await promisify(execFile)('ffmpeg', [
        ...['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '2400'],
        ...['-c:a', 'libmp3lame', '-b:a', '8k', file],
      ]);
      const probed = await createMediaTools(defaults.extraction).probeSpeech(file, 30_000);
      expect(probed?.durationSeconds).toBeCloseTo(2400, -1);
      const seconds = probed!.durationSeconds!;
      const { size } = await fs.stat(file);

      // Transcribed whole on one core it needs ~15 minutes: past EXTRACT_TIMEOUT_MS, within its own budget.
      expect(seconds * TRANSCRIBE_MS_PER_SECOND).toBeGreaterThan(defaults.extraction.timeoutMs);
      expect(budgetFor('audio', size, defaults, seconds).timeoutMs).toBeGreaterThan(
        2 * seconds * TRANSCRIBE_MS_PER_SECOND,
      );
      // Chunked (it is longer than MEDIA_CHUNK_SECONDS), each chunk's budget fits the chunk with the same margin.
      const chunkSeconds = defaults.extraction.mediaChunkSeconds;
      expect(seconds).toBeGreaterThan(chunkSeconds * 1.25);
      expect(mediaBudgetMs(chunkSeconds * 1.5, defaults)).toBeGreaterThan(
        2 * chunkSeconds * 1.5 * TRANSCRIBE_MS_PER_SECOND,
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

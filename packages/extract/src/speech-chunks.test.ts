import { describe, expect, it } from 'vitest';
import { joinChunkTranscripts, pcmRange, planChunks, wavHeader } from './speech-chunks.ts';

describe('planChunks', () => {
  it('cuts in the middle of the longest silence near each ideal cut', () => {
    const silences = [
      { startMs: 50_000, endMs: 50_400 },
      { startMs: 58_000, endMs: 59_000 }, // longest near 60 s
      { startMs: 61_000, endMs: 61_500 },
      { startMs: 121_000, endMs: 121_600 },
    ];
    expect(planChunks(150_000, silences, 60_000)).toEqual([
      { startMs: 0, endMs: 58_500, atSilence: true },
      { startMs: 58_500, endMs: 121_300, atSilence: true },
      { startMs: 121_300, endMs: 150_000, atSilence: true },
    ]);
  });

  it('cuts at the ideal point when the speech has no pause, and says so for the chunk that starts there', () => {
    expect(planChunks(130_000, [], 60_000)).toEqual([
      { startMs: 0, endMs: 60_000, atSilence: true },
      { startMs: 60_000, endMs: 130_000, atSilence: false },
    ]);
  });

  it('keeps a recording up to a quarter longer than the target in one chunk', () => {
    expect(planChunks(74_000, [{ startMs: 30_000, endMs: 31_000 }], 60_000)).toEqual([
      { startMs: 0, endMs: 74_000, atSilence: true },
    ]);
  });

  it('covers the whole recording without gaps or overlaps', () => {
    const silences = Array.from({ length: 400 }, (_, i) => ({ startMs: i * 9_000 + 4_000, endMs: i * 9_000 + 4_500 }));
    const chunks = planChunks(3_600_000, silences, 120_000);
    expect(chunks[0]!.startMs).toBe(0);
    expect(chunks.at(-1)!.endMs).toBe(3_600_000);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startMs).toBe(chunks[i - 1]!.endMs);
    for (const c of chunks) expect(c.endMs - c.startMs).toBeLessThanOrEqual(150_000);
  });
});

describe('joinChunkTranscripts', () => {
  it('shifts each chunk to its place in the recording and merges neighbouring missing stretches', () => {
    const joined = joinChunkTranscripts([
      { startMs: 0, endMs: 10_000, segments: [{ text: 'go forward', startMs: 500, endMs: 1_500 }] },
      { startMs: 10_000, endMs: 20_000, error: 'timed out' },
      { startMs: 20_000, endMs: 30_000, error: 'timed out' },
      { startMs: 30_000, endMs: 40_000, segments: [{ text: 'ten meters', startMs: 200, endMs: 900 }] },
    ]);
    expect(joined.segments).toEqual([
      { text: 'go forward', startMs: 500, endMs: 1_500 },
      { text: 'ten meters', startMs: 30_200, endMs: 30_900 },
    ]);
    expect(joined.missing).toEqual([{ startMs: 10_000, endMs: 30_000, reason: 'timed out' }]);
  });
});

describe('WAV chunks', () => {
  it('cuts on whole samples and heads them with a 16-bit mono PCM header', () => {
    expect(pcmRange({ startMs: 1_000, endMs: 2_500 }, 16_000)).toEqual({ start: 32_000, end: 80_000 });
    const header = wavHeader(48_000, 16_000);
    expect(header.length).toBe(44);
    expect(header.toString('ascii', 0, 4)).toBe('RIFF');
    expect(header.readUInt32LE(24)).toBe(16_000);
    expect(header.readUInt32LE(40)).toBe(48_000);
  });
});

import type { Silence } from './ffmpeg.ts';
import type { TranscriptSegment } from './speech-engine.ts';

/** Where a recording is cut: quiet enough to be a pause between words, long enough not to be a stop consonant. */
export const CHUNK_SILENCE = { noiseDb: -30, minSeconds: 0.3 } as const;

export interface ChunkSpan {
  startMs: number;
  endMs: number;
  /** False when no silence was near enough and the cut fell where a word may be. */
  atSilence: boolean;
}

/**
 * Cuts `durationMs` into chunks of about `targetMs`, each ending in the middle of a silence: the longest one
 * within a quarter of the target from the ideal cut, else within a half, else (speech without a pause) at
 * the ideal cut itself. The last chunk takes the rest when it is at most a quarter longer than the target.
 */
export function planChunks(durationMs: number, silences: Silence[], targetMs: number): ChunkSpan[] {
  const chunks: ChunkSpan[] = [];
  let cursor = 0;
  let atSilence = true;
  while (durationMs - cursor > targetMs * 1.25) {
    const ideal = cursor + targetMs;
    const cut =
      longestSilenceMiddle(silences, ideal - targetMs / 4, ideal + targetMs / 4) ??
      longestSilenceMiddle(silences, ideal - targetMs / 2, ideal + targetMs / 2);
    const end = cut ?? ideal;
    chunks.push({ startMs: cursor, endMs: end, atSilence });
    atSilence = cut !== undefined;
    cursor = end;
  }
  if (durationMs > cursor) chunks.push({ startMs: cursor, endMs: durationMs, atSilence });
  return chunks;
}

function longestSilenceMiddle(silences: Silence[], fromMs: number, toMs: number): number | undefined {
  let best: Silence | undefined;
  for (const s of silences) {
    const middle = (s.startMs + s.endMs) / 2;
    if (middle <= fromMs || middle >= toMs) continue;
    if (!best || s.endMs - s.startMs > best.endMs - best.startMs) best = s;
  }
  return best ? Math.round((best.startMs + best.endMs) / 2) : undefined;
}

/** Byte range of a chunk in raw 16-bit mono samples at `sampleRate`: whole samples, so no sample is split. */
export function pcmRange(span: { startMs: number; endMs: number }, sampleRate: number): { start: number; end: number } {
  const sample = (ms: number) => Math.round((ms * sampleRate) / 1000);
  return { start: sample(span.startMs) * 2, end: sample(span.endMs) * 2 };
}

/** The 44-byte header that makes `dataBytes` of raw 16-bit mono samples a WAV file. */
export function wavHeader(dataBytes: number, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

export interface ChunkTranscript {
  startMs: number;
  endMs: number;
  /** The chunk's words with times relative to the chunk; absent when it could not be transcribed. */
  segments?: TranscriptSegment[];
  error?: string;
}

export interface MissingStretch {
  startMs: number;
  endMs: number;
  reason: string;
}

/**
 * One continuous transcript from chunk transcripts: times become relative to the whole recording, and each
 * chunk without words is reported as a missing stretch (neighbouring ones merged) instead of failing the rest.
 */
export function joinChunkTranscripts(chunks: ChunkTranscript[]): {
  segments: TranscriptSegment[];
  missing: MissingStretch[];
} {
  const segments: TranscriptSegment[] = [];
  const missing: MissingStretch[] = [];
  for (const chunk of [...chunks].sort((a, b) => a.startMs - b.startMs)) {
    if (!chunk.segments) {
      const reason = chunk.error ?? 'not transcribed';
      const last = missing.at(-1);
      if (last && last.endMs === chunk.startMs && last.reason === reason) last.endMs = chunk.endMs;
      else missing.push({ startMs: chunk.startMs, endMs: chunk.endMs, reason });
      continue;
    }
    for (const s of chunk.segments)
      segments.push({ text: s.text, startMs: s.startMs + chunk.startMs, endMs: s.endMs + chunk.startMs });
  }
  return { segments, missing };
}

import type { TextSegment } from '@quire/extract';

export interface Chunk {
  text: string;
  page?: number;
  chapter?: number;
  startMs?: number;
  endMs?: number;
}

export interface ChunkOptions {
  maxChars: number;
  overlapChars: number;
}

/** About 150-200 words: long enough to carry context, short enough that a passage answers one thing. */
export const CHUNK_OPTIONS: ChunkOptions = { maxChars: 1000, overlapChars: 150 };

interface Token {
  start: number;
  end: number;
  segment: TextSegment;
}

/**
 * Splits extracted segments into search passages of at most `maxChars`, cut between words, each beginning
 * with the last `overlapChars` or so of the one before, so a phrase cut in two is still found whole.
 * Segments of different pages or chapters never share a passage, so every passage has one position;
 * consecutive timed segments (a transcript's lines) are joined and the passage spans their times.
 */
export function chunkSegments(segments: TextSegment[], options: ChunkOptions = CHUNK_OPTIONS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const group of groupByPosition(segments)) {
    const { text, tokens } = tokenize(group, options.maxChars);
    let first = 0;
    while (first < tokens.length) {
      let next = first + 1;
      while (next < tokens.length && tokens[next]!.end - tokens[first]!.start <= options.maxChars) next++;
      const last = tokens[next - 1]!;
      chunks.push(chunkOf(text, tokens.slice(first, next)));
      if (next === tokens.length) break;
      let overlapStart = first + 1;
      while (overlapStart < next && tokens[overlapStart]!.start < last.end - options.overlapChars) overlapStart++;
      first = overlapStart;
    }
  }
  return chunks;
}

function groupByPosition(segments: TextSegment[]): TextSegment[][] {
  const groups: TextSegment[][] = [];
  for (const segment of segments) {
    const current = groups.at(-1);
    const previous = current?.at(-1);
    if (current && previous && previous.page === segment.page && previous.chapter === segment.chapter)
      current.push(segment);
    else groups.push([segment]);
  }
  return groups;
}

/** Words of the group's joined text; a "word" longer than `maxChars` (a URL, a base64 blob) is cut up. */
function tokenize(group: TextSegment[], maxChars: number): { text: string; tokens: Token[] } {
  let text = '';
  const tokens: Token[] = [];
  for (const segment of group) {
    if (text) text += '\n';
    const offset = text.length;
    text += segment.text;
    for (const match of segment.text.matchAll(/\S+/g)) {
      const start = offset + match.index;
      const end = start + match[0].length;
      for (let piece = start; piece < end; piece += maxChars)
        tokens.push({ start: piece, end: Math.min(end, piece + maxChars), segment });
    }
  }
  return { text, tokens };
}

function chunkOf(text: string, tokens: Token[]): Chunk {
  const first = tokens[0]!;
  const last = tokens.at(-1)!;
  const chunk: Chunk = { text: text.slice(first.start, last.end) };
  if (first.segment.page !== undefined) chunk.page = first.segment.page;
  if (first.segment.chapter !== undefined) chunk.chapter = first.segment.chapter;
  const starts = tokens.map((t) => t.segment.startMs).filter((ms): ms is number => ms !== undefined);
  const ends = tokens.map((t) => t.segment.endMs).filter((ms): ms is number => ms !== undefined);
  if (starts.length) chunk.startMs = Math.min(...starts);
  if (ends.length) chunk.endMs = Math.max(...ends);
  return chunk;
}

import type { Box, TextSegment } from '@quire/extract';
import { sectionsOf, unionBox, unitsOf } from './passage-sections.ts';

export interface Chunk {
  text: string;
  /** The headings the passage stands under, outermost first. */
  heading?: string[];
  page?: number;
  slide?: number;
  chapter?: number;
  startMs?: number;
  endMs?: number;
  /** Around the passage's elements on its PDF page. */
  box?: Box;
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
  /** Tokens of one unit (a list item, a table row) share it: a passage is not cut between them. */
  unit: number;
}

/**
 * Splits extracted segments into search passages of at most `maxChars`, cut between words, each beginning
 * with the last `overlapChars` or so of the one before, so a phrase cut in two is still found whole.
 * A heading starts a new passage (see `sectionsOf`) and every passage carries the headings it stands under;
 * a list item or a table row is cut only when it alone is longer than a passage. Segments of different pages,
 * slides or chapters never share a passage, so every passage has one position; consecutive timed segments (a
 * transcript's lines) are joined and the passage spans their times.
 */
export function chunkSegments(segments: TextSegment[], options: ChunkOptions = CHUNK_OPTIONS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sectionsOf(segments)) {
    for (const group of groupByPosition(section.segments)) {
      const { text, tokens } = tokenize(group, options.maxChars);
      let first = 0;
      while (first < tokens.length) {
        let next = first + 1;
        while (next < tokens.length && tokens[next]!.end - tokens[first]!.start <= options.maxChars) next++;
        next = unitStart(tokens, next, first);
        const last = tokens[next - 1]!;
        chunks.push(chunkOf(text, tokens.slice(first, next), section.heading));
        if (next === tokens.length) break;
        let overlapStart = first + 1;
        while (overlapStart < next && tokens[overlapStart]!.start < last.end - options.overlapChars) overlapStart++;
        // The overlap starts at a unit's start, or there is none.
        while (overlapStart < next && tokens[overlapStart]!.unit === tokens[overlapStart - 1]!.unit) overlapStart++;
        first = overlapStart;
      }
    }
  }
  return chunks;
}

/** Where a passage ending before `next` should end so as not to cut a unit: its start, unless that leaves nothing. */
function unitStart(tokens: Token[], next: number, first: number): number {
  let end = next;
  while (end < tokens.length && end > first + 1 && tokens[end]!.unit === tokens[end - 1]!.unit) end--;
  return end < tokens.length && end > first && tokens[end]!.unit !== tokens[end - 1]!.unit ? end : next;
}

function groupByPosition(segments: TextSegment[]): TextSegment[][] {
  const groups: TextSegment[][] = [];
  for (const segment of segments) {
    const current = groups.at(-1);
    const previous = current?.at(-1);
    if (
      current &&
      previous &&
      previous.page === segment.page &&
      previous.slide === segment.slide &&
      previous.chapter === segment.chapter
    )
      current.push(segment);
    else groups.push([segment]);
  }
  return groups;
}

/** Words of the group's joined text; a "word" longer than `maxChars` (a URL, a base64 blob) is cut up. */
function tokenize(group: TextSegment[], maxChars: number): { text: string; tokens: Token[] } {
  let text = '';
  const tokens: Token[] = [];
  let unit = 0;
  for (const segment of group) {
    if (text) text += '\n';
    const offset = text.length;
    text += segment.text;
    const units = unitsOf(segment);
    let at = 0;
    let current = -1;
    for (const match of segment.text.matchAll(/\S+/g)) {
      while (units && at < units.length && units[at]!.end <= match.index) at++;
      const inUnit = units !== undefined && at < units.length && units[at]!.start <= match.index;
      if (!inUnit || current !== at) unit++;
      current = inUnit ? at : -1;
      const start = offset + match.index;
      const end = start + match[0].length;
      for (let piece = start; piece < end; piece += maxChars)
        tokens.push({ start: piece, end: Math.min(end, piece + maxChars), segment, unit });
    }
  }
  return { text, tokens };
}

function chunkOf(text: string, tokens: Token[], heading: string[]): Chunk {
  const first = tokens[0]!;
  const last = tokens.at(-1)!;
  // Composed (NFC), as people type: a page written with combining marks ("u" + U+0308 for "ü") is found too.
  const chunk: Chunk = { text: text.slice(first.start, last.end).normalize('NFC') };
  if (heading.length > 0) chunk.heading = heading;
  if (first.segment.page !== undefined) chunk.page = first.segment.page;
  if (first.segment.slide !== undefined) chunk.slide = first.segment.slide;
  if (first.segment.chapter !== undefined) chunk.chapter = first.segment.chapter;
  const box = unionBox([...new Set(tokens.map((t) => t.segment))].flatMap((s) => (s.box ? [s.box] : [])));
  if (box) chunk.box = box;
  const starts = tokens.map((t) => t.segment.startMs).filter((ms): ms is number => ms !== undefined);
  const ends = tokens.map((t) => t.segment.endMs).filter((ms): ms is number => ms !== undefined);
  if (starts.length) chunk.startMs = Math.min(...starts);
  if (ends.length) chunk.endMs = Math.max(...ends);
  return chunk;
}

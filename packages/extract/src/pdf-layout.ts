import { roundBox, unionBox, type Box } from './document.ts';
import { alignedTables, type AlignedTable, type TextRun } from './pdf-aligned-tables.ts';
import { HyphenatedWords, joinBrokenWord, plainHyphens } from './pdf-hyphens.ts';
import type { CellPlace } from './pdf-grids.ts';
import { BULLET, CHECK_BOX, decimalOf, LETTER_BULLET, NUMBER, OUTLINE_NUMBER, TIGHT_BULLET } from './pdf-markers.ts';
import { PageTables } from './pdf-tables.ts';
import type { LineTag } from './pdf-tags.ts';
import type { TextSegment } from './types.ts';
import { normalizeText, RIGHT_TO_LEFT } from './words.ts';

/** One line of a page's text layer, as the engine groups it. */
export interface LayoutLine {
  text: string;
  /** `[x0, y0, x1, y1]` in points from the page's top left. */
  box: Box;
  /** The font's size on the line, in points (any consistent measure: only ratios are read). */
  size: number;
  bold: boolean;
  /** The line is set in italics, in its middle and at one end (a heading's number may stand upright). */
  italic?: boolean;
  /** The font's name, where the engine gives it. */
  font?: string;
  /** The line is set in a fixed-pitch font, start, middle and end (code). */
  fixedPitch?: boolean;
  /** Where the line's text stands apart (a table row's cells, a tab after a number): each run's left edge. */
  gaps?: number[];
  /** The line's text in runs a little more than a word space apart, with their edges, where it has two or more. */
  runs?: TextRun[];
  /** In a tagged PDF, the structure element the line belongs to. */
  tag?: LineTag;
  /** The cell of a table drawn as a ruled grid that the line's text stands in. */
  cell?: CellPlace;
}

export interface LayoutPage {
  page: number;
  width: number;
  height: number;
  lines: LayoutLine[];
  /** The rules drawn across the page (a table's rule under its header), where the engine gives them. */
  rules?: Box[];
}

/** The widest gap between two lines of one code block, in line heights: a blank line goes on with the code. */
const CODE_GAP = 1.6;

/** How much bigger than the body text a line must be to read as a heading without being bold. */
const HEADING_SIZE_RATIO = 1.15;
/** ...or, set in another typeface than the body's (a sans-serif heading over serif text), how much bigger. */
const OTHER_FONT_RATIO = 1.05;
/** The share of the page's height at its top and bottom where running headers and footers stand. */
const MARGIN_BAND = 0.12;
/** A heading is short: at most this many lines, characters and words. */
const HEADING_MAX_LINES = 3;
const HEADING_MAX_CHARS = 160;
const HEADING_MAX_WORDS = 20;
/** Signs of a formula: operators, and the math alphabets of Unicode (𝐵, 𝑥). */
const MATH = /[=+−×·÷<>≤≥∑∫|]|[\u{1D400}-\u{1D7FF}]/u;
/** An italic heading is a title of a few words; a longer italic line is a note or an aside. */
const ITALIC_HEADING_MAX_WORDS = 10;
/** Full lines a document needs before its own line spacing is read from them. */
const SPACING_SAMPLES = 5;
/** A full line of a paragraph is at least this share of the page's width (a column of two is about 0.4). */
const FULL_LINE = 0.35;
/** The share of a page's text width a full line of ragged-right text may stop short by. */
const RAGGED = 0.15;
/** How much wider than its usual line spacing a paragraph's gap between lines may be (a line's depth varies). */
const SPACING_ROOM = 1.3;
/** A footnote's sign, where it marks a note rather than numbers it. */
const FOOTNOTE_SIGN = /^\s*[∗*†‡§]/u;
/** A numbered note set this much smaller than the body text is a footnote, not a list's item. */
const FOOTNOTE_RATIO = 0.9;

/** "2", "2.3", "2.3.1" before a heading's words, "A." or "IV." too. */
const SECTION_NUMBER = /^\s*(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(?=\p{L})/u;
const PAGE_NUMBER = /^\s*(page\s*)?(#+|[ivxlc]+)(\s*(of|\/)\s*#+)?\s*$/i;

const heightOf = (box: Box) => box[3] - box[1];
/** A line's text with digits masked, so "Page 3" and "Page 4" are the same running footer. */
const runningKey = (text: string) => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The most common font size of the document's text, weighted by characters: the body text's. A ruled table's
 * cells are set at a size of their own (a slide's table can outweigh its slides' text), so they count only in
 * a document that is all tables.
 */
export function bodySize(pages: LayoutPage[], running?: Map<LayoutLine, unknown>): number {
  const weights = new Map<number, number>();
  const flowing = pages.some(({ lines }) => lines.some((line) => !line.cell));
  for (const { lines } of pages)
    for (const line of lines) {
      if ((flowing && line.cell) || running?.has(line)) continue;
      const size = Math.round(line.size * 2) / 2;
      weights.set(size, (weights.get(size) ?? 0) + line.text.length);
    }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) if (weight > bestWeight) [best, bestWeight] = [size, weight];
  return best;
}

/** The font most of the text at the body's size is set in ('' when the engine gives no names). */
function bodyFont(pages: LayoutPage[], body: number): string {
  const weights = new Map<string, number>();
  for (const { lines } of pages)
    for (const line of lines)
      if (line.font && Math.round(line.size * 2) / 2 === body)
        weights.set(line.font, (weights.get(line.font) ?? 0) + line.text.length);
  let best = '';
  let bestWeight = -1;
  for (const [font, weight] of weights) if (weight > bestWeight) [best, bestWeight] = [font, weight];
  return best;
}

/** Whether most of the text at the body's size is bold (then bold says nothing about headings). */
function bodyIsBold(pages: LayoutPage[], body: number): boolean {
  let bold = 0;
  let all = 0;
  for (const { lines } of pages)
    for (const line of lines)
      if (Math.round(line.size * 2) / 2 === body) {
        all += line.text.length;
        if (line.bold) bold += line.text.length;
      }
  return bold > all / 2;
}

/** How a document's paragraphs set their lines: the gap between them, and how wide a full line is. */
interface LineSpacing {
  gap: number;
  width: number;
}

/**
 * The gap a paragraph leaves between its lines, from the document's full lines at the body's size (a line over a
 * third of the page wide that runs to about the right edge of its page's text, with the next line under it): a
 * point or two when set solid, about a line's height when double spaced (a manuscript, a student's essay). No gap
 * when too few lines say.
 */
function lineSpacing(pages: LayoutPage[], body: number): LineSpacing {
  const gaps: number[] = [];
  const widths: number[] = [];
  for (const { lines, width } of pages) {
    const atBody = lines.filter((line) => !line.cell && Math.abs(line.size - body) <= body * 0.1);
    const right = Math.max(...atBody.map((line) => line.box[2]));
    // (Ragged right, a full line stops short of the right edge by a word or two.)
    const full = right - (right - Math.min(...atBody.map((line) => line.box[0]))) * RAGGED;
    atBody.forEach((line, i) => {
      const next = atBody[i + 1];
      const lineWidth = line.box[2] - line.box[0];
      if (!next || line.box[2] < full || lineWidth < width * FULL_LINE) return;
      if (next.box[0] > line.box[2] || next.box[2] < line.box[0]) return;
      const gap = next.box[1] - line.box[3];
      if (gap <= -heightOf(line.box) / 2 || gap >= heightOf(line.box) * 3) return;
      gaps.push(gap);
      widths.push(lineWidth);
    });
  }
  if (gaps.length < SPACING_SAMPLES) return { gap: 0, width: Infinity };
  const middle = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  return { gap: middle(gaps), width: middle(widths) };
}

/**
 * Lines repeated at the top or the bottom of pages (numbers masked), and lone page numbers there: running
 * headers and footers. Returns, per page index, the indices of its lines that are one, with their kind.
 */
export function runningLines(pages: LayoutPage[]): Map<LayoutLine, 'page-header' | 'page-footer'> {
  const candidates: { line: LayoutLine; key: string; kind: 'page-header' | 'page-footer' }[] = [];
  for (const { lines, height } of pages) {
    // A page's only line is its content, whatever it says.
    if (lines.length < 2) continue;
    const sorted = [...lines].sort((a, b) => a.box[1] - b.box[1]);
    // A running line stands apart from the text under (or over) it: the first line of a paragraph that
    // happens to start every page alike ("Page 3 of the handbook...") goes on in the next line.
    const apart = (line: LayoutLine, step: 1 | -1) => {
      const at = sorted.indexOf(line);
      for (let i = at + step; i >= 0 && i < sorted.length; i += step) {
        const other = sorted[i]!;
        const gap = step === 1 ? other.box[1] - line.box[3] : line.box[1] - other.box[3];
        if (gap <= -heightOf(line.box) / 2) continue;
        return gap > heightOf(line.box) * 0.5;
      }
      return true;
    };
    const top = sorted.slice(0, 2).filter((line) => line.box[3] <= height * MARGIN_BAND && apart(line, 1));
    const bottom = sorted.slice(-2).filter((line) => line.box[1] >= height * (1 - MARGIN_BAND) && apart(line, -1));
    for (const line of top) candidates.push({ line, key: runningKey(line.text), kind: 'page-header' });
    for (const line of bottom)
      if (!top.includes(line)) candidates.push({ line, key: runningKey(line.text), kind: 'page-footer' });
  }
  const counts = new Map<string, number>();
  for (const { key, kind } of candidates) counts.set(`${kind}:${key}`, (counts.get(`${kind}:${key}`) ?? 0) + 1);
  const repeatedAt = pages.length <= 4 ? 2 : 3;
  const found = new Map<LayoutLine, 'page-header' | 'page-footer'>();
  for (const { line, key, kind } of candidates)
    if (key && (counts.get(`${kind}:${key}`)! >= repeatedAt || PAGE_NUMBER.test(key))) found.set(line, kind);
  return found;
}

/**
 * The page's lines in reading order. A page whose lines fall on either side of a gutter down its middle (few
 * lines crossing it) is read column by column, each band between lines that span both columns on its own;
 * any other page keeps the engine's order, which follows the file's content.
 */
export function inReadingOrder(lines: LayoutLine[], width: number): LayoutLine[] {
  if (lines.length < 10) return lines;
  let best: { gutter: number; left: LayoutLine[]; right: LayoutLine[] } | undefined;
  for (let gutter = width * 0.35; gutter <= width * 0.65; gutter += width * 0.01) {
    const left = lines.filter((line) => line.box[2] <= gutter);
    const right = lines.filter((line) => line.box[0] >= gutter);
    if (!best || Math.min(left.length, right.length) > Math.min(best.left.length, best.right.length))
      best = { gutter, left, right };
  }
  if (!best) return lines;
  const { gutter, left, right } = best;
  const wide = (column: LayoutLine[]) => {
    const widths = column.map((line) => line.box[2] - line.box[0]).sort((a, b) => a - b);
    return widths[widths.length >> 1]! >= width * 0.25;
  };
  const sides = left.length + right.length;
  // Two columns of running text: many lines each side, wide ones (not a table's cells), few lines across.
  if (Math.min(left.length, right.length) < 5 || sides < lines.length * 0.7 || !wide(left) || !wide(right))
    return lines;
  const spanning = lines
    .filter((line) => line.box[0] < gutter && line.box[2] > gutter)
    .sort((a, b) => a.box[1] - b.box[1]);
  const ordered: LayoutLine[] = [];
  const byTop = (a: LayoutLine, b: LayoutLine) => a.box[1] - b.box[1];
  let from = -Infinity;
  for (const separator of [...spanning, undefined]) {
    const to = separator ? separator.box[1] : Infinity;
    const inBand = (line: LayoutLine) => line.box[1] >= from && line.box[1] < to;
    ordered.push(...left.filter(inBand).sort(byTop), ...right.filter(inBand).sort(byTop));
    if (separator) ordered.push(separator);
    from = to;
  }
  return ordered;
}

interface Block {
  lines: LayoutLine[];
  text: string;
  box: Box;
  size: number;
  bold: boolean;
  font?: string;
  kind?: 'page-header' | 'page-footer' | 'list-item' | 'code';
  /** A list item's marker: its text is '' where the item's text keeps it ("2.3.1 ..."). */
  marker?: { ordered: boolean; indent: number; text: string };
}

/** A table of contents' line: its title, dot leaders and a page number ("1.3 Scope . . . . . 4"). */
const CONTENTS_LINE = /(?:\.\s?){4,}\s*\d+\s*$/u;
/** A date alone on its line with the day before a stop ("15. Oktober 2020"), not a numbered item. */
const DAY_DATE = /^\s*\d{1,2}\.\s+\p{L}+\.?\s+\d{4}\s*$/u;

/**
 * A list item's marker at the start of `text`; "o" counts as a bullet only after another item. A number of
 * several levels ("2.3.1") is `kept` in the item's text: Markdown cannot write it, and it is what a reader sees.
 */
export const markerOf = (text: string, afterItem = false) => {
  const marker = leadingMarker(text, afterItem);
  // (Only a line that starts like an item is read to its end.)
  return marker && !CONTENTS_LINE.test(text) && !DAY_DATE.test(text) ? marker : undefined;
};

function leadingMarker(text: string, afterItem: boolean) {
  if (CHECK_BOX.test(text)) return { ordered: false, length: 0, kept: true };
  const bullet = BULLET.exec(text) ?? TIGHT_BULLET.exec(text) ?? (afterItem ? LETTER_BULLET.exec(text) : null);
  if (bullet) return { ordered: false, length: bullet[0].length, kept: false };
  const number = NUMBER.exec(text);
  if (number) return { ordered: true, length: number[0].length, kept: false };
  const outline = OUTLINE_NUMBER.exec(text);
  if (outline) {
    const kept = outline[1]!.includes('.') && /\d\.\d/.test(outline[1]!);
    return { ordered: !kept, length: outline[0].length, kept };
  }
  return undefined;
}

/**
 * Whether the line's text stands apart in runs (a table's row, a label and its value) other than a marker or
 * number set off by a tab before its text.
 */
function inRuns(line: LayoutLine): boolean {
  const gaps = line.gaps?.length ?? 0;
  return gaps > 0 && gaps > (markerOf(line.text) || SECTION_NUMBER.test(line.text) ? 1 : 0);
}

/** Text, or a line numbered as a section is ("2.3 Results"), not as a list's item ("1. Reviewer"). */
const textOrSection = (block: Block) => !block.kind || (block.kind === 'list-item' && block.marker!.text === '');

/** Whether `line` goes on the paragraph `block` ends with, from spacing, size, weight and what starts it. */
function continues(block: Block, line: LayoutLine, code: Set<LayoutLine>, spacing: LineSpacing): boolean {
  if (block.kind === 'page-header' || block.kind === 'page-footer') return false;
  const last = block.lines.at(-1)!;
  // Code is a block of its own, its lines as they stand (set in, short, ending in "-").
  if ((block.kind === 'code') !== code.has(line)) return false;
  if (block.kind === 'code') return codeGoesOn(last, line);
  const brokenWord = /[\p{L}][-\ufffe]\s*$/u.test(last.text) && /^\s*\p{Ll}/u.test(line.text);
  // A word broken at the foot of a column goes on at the head of the next.
  if (brokenWord && line.box[1] < last.box[1] && Math.abs(line.size - last.size) <= last.size * 0.1) return true;
  const marker = markerOf(line.text, block.kind === 'list-item');
  // A number starting a line after one that broke mid-sentence ("...explains topic" / "321. Then") goes on with
  // the sentence; after a full stop, a colon or another item, or a line that stopped well short of a full line
  // ("Two parts" / "a) The first"), it starts an item.
  const stoppedShort = last.box[2] - last.box[0] < spacing.width * 0.6;
  const sentenceEnded = /[.!?:;]["')\]]?\s*$/.test(last.text) || stoppedShort;
  if (marker && (!marker.ordered || block.kind === 'list-item' || sentenceEnded)) return false;
  // A line that starts left of an item's marker is back at the text's margin: the item ended (a right-to-left
  // item's lines end on the left, ragged).
  if (
    block.kind === 'list-item' &&
    line.box[0] < block.marker!.indent - line.size * 0.5 &&
    !RIGHT_TO_LEFT.test(block.text)
  )
    return false;
  // A list item's next line set in under its text (past the marker) goes on with it in another weight too
  // ("23. Which providers...?" in bold, then "(Select all that apply)" in italics).
  const hanging = block.kind === 'list-item' && line.box[0] > block.marker!.indent + line.size * 0.5;
  if (line.bold !== last.bold && !brokenWord && !hanging) return false;
  const size = Math.min(line.size, last.size);
  if (Math.abs(line.size - last.size) > size * 0.1) return false;
  // A short line alone in italics over upright text at its size: a heading set in italics, apart from its text
  // (a paragraph's first line in italics runs to the margin, or goes on in italics).
  const endsShort = last.box[2] < line.box[2] - size * 4;
  if (block.lines.length === 1 && last.italic && !line.italic && textOrSection(block) && endsShort) return false;
  // Another typeface at another size: a heading's line, then its text (a word in italics keeps the size).
  if (line.font && last.font && line.font !== last.font && Math.abs(line.size - last.size) > size * 0.04) return false;
  const gap = line.box[1] - last.box[3];
  const lineHeight = Math.max(heightOf(last.box), size * 0.5);
  // A full line that runs on as far as the next one is followed at the document's own spacing (a line apart
  // when it is double spaced); after a line that stops short, the next one goes on only at a line's usual spacing.
  const runsOn = !endsShort && last.box[2] - last.box[0] >= spacing.width * 0.6;
  const widest = runsOn ? Math.max(lineHeight * 0.8, spacing.gap * SPACING_ROOM) : lineHeight * 0.8;
  if (gap < -lineHeight * 0.5 || gap > widest) return false;
  // Side by side (a table's cells, a label beside its value) rather than one under the other.
  if (line.box[0] > last.box[2] || line.box[2] < last.box[0]) return false;
  if (!block.kind && block.lines.length >= 2) {
    // The last line stopped after a sentence though the next line's first word would have fit after it:
    // the paragraph ended there (ragged-right lines stop short too, but not with room for the next word).
    const charWidth = (last.box[2] - last.box[0]) / Math.max(1, last.text.trim().length);
    const nextWord = line.text.trim().split(/\s/, 1)[0]!.length;
    const room = block.box[2] - last.box[2];
    // (Half as much again: an average character is narrower than a capital's word.)
    if (room > (nextWord + 1) * charWidth * 1.5 && /[.!?:]["')\]]?\s*$/.test(last.text)) return false;
  }
  // A first line set in from the one above starts a paragraph (a list item's next lines are set in too).
  if (!block.kind && block.lines.length >= 2 && line.box[0] > last.box[0] + size * 0.8 && !brokenWord) return false;
  // A line back at the margin after lines set in is a new block: left of every line above, after a quotation
  // set in; at the block's left edge under a line set in, a bibliography's next entry (its lines hang). (Not
  // for right-to-left lines, which end there, ragged.)
  if (!block.kind && block.lines.length >= 2 && !RIGHT_TO_LEFT.test(block.text)) {
    const setOut = line.box[0] < block.box[0] - size * 0.8;
    const hangs = last.box[0] > block.box[0] + size * 0.8 && line.box[0] < block.box[0] + size * 0.3;
    if (setOut || hangs) return false;
  }
  return true;
}

/** Whether a line of code goes on the code above it: the same size, the next line down or a blank line's gap. */
function codeGoesOn(last: LayoutLine, line: LayoutLine): boolean {
  const size = Math.min(line.size, last.size);
  if (Math.abs(line.size - last.size) > size * 0.1) return false;
  const gap = line.box[1] - last.box[3];
  const lineHeight = Math.max(heightOf(last.box), size * 0.5);
  return gap >= -lineHeight * 0.5 && gap <= lineHeight * CODE_GAP;
}

/** A code block's text: its lines, each set in by as many spaces as it stands right of the block's leftmost. */
function codeText(lines: LayoutLine[]): string {
  const left = Math.min(...lines.map((line) => line.box[0]));
  const widths = lines.map((line) => (line.box[2] - line.box[0]) / Math.max(1, line.text.trim().length));
  const charWidth = Math.max(...widths);
  return lines
    .map(
      (line) =>
        ' '.repeat(Math.round((line.box[0] - left) / charWidth)) + normalizeText(plainHyphens(line.text)).trim(),
    )
    .join('\n');
}

function startBlock(line: LayoutLine, kind?: Block['kind'], afterItem = false): Block {
  const marker = kind ? undefined : markerOf(line.text, afterItem);
  return {
    lines: [line],
    text: marker && !marker.kept ? line.text.slice(marker.length) : line.text,
    box: line.box,
    size: line.size,
    bold: line.bold,
    ...(line.font ? { font: line.font } : {}),
    ...(kind
      ? { kind }
      : marker
        ? {
            kind: 'list-item' as const,
            marker: {
              ordered: marker.ordered,
              indent: line.box[0],
              text: marker.kept ? '' : line.text.slice(0, marker.length),
            },
          }
        : {}),
  };
}

function addLine(block: Block, line: LayoutLine, known: HyphenatedWords): void {
  const joined = joinBrokenWord(block.text, line.text, known);
  block.text = joined ?? `${block.text}\n${line.text}`;
  block.lines.push(line);
  block.box = unionBox(block.box, line.box);
}

/**
 * The lines of code among a page's lines in reading order: two or more one under the other in a fixed-pitch
 * font (one such line alone is a name or a heading set in Courier). None in a document typed in one.
 */
function codeLinesOf(lines: LayoutLine[], typed: boolean): Set<LayoutLine> {
  const code = new Set<LayoutLine>();
  if (typed) return code;
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (line.fixedPitch && next?.fixedPitch && codeGoesOn(line, next)) code.add(line).add(next);
  });
  return code;
}

/** Whether most of a document's text is set in a fixed-pitch font (a typewritten page, a screenplay). */
function isTyped(pages: LayoutPage[]): boolean {
  let fixed = 0;
  let all = 0;
  for (const { lines } of pages)
    for (const line of lines) {
      all += line.text.length;
      if (line.fixedPitch) fixed += line.text.length;
    }
  return fixed * 2 > all;
}

function blocksOf(
  lines: LayoutLine[],
  running: Map<LayoutLine, 'page-header' | 'page-footer'>,
  known: HyphenatedWords,
  code: Set<LayoutLine>,
  spacing: LineSpacing,
) {
  const blocks: Block[] = [];
  for (const line of lines) {
    const kind = code.has(line) ? 'code' : running.get(line);
    const current = blocks.at(-1);
    if (kind !== 'page-header' && kind !== 'page-footer' && current && continues(current, line, code, spacing))
      addLine(current, line, known);
    else blocks.push(startBlock(line, kind, current?.kind === 'list-item'));
  }
  return blocks;
}

/**
 * Sizes within this ratio of each other are one heading size (a title's 24 pt and 24.5 pt lines); a word
 * processor's 14 pt "Heading 1" and 13 pt "Heading 2" are two.
 */
const SAME_SIZE = 1.05;
/** A short block set bigger than the body text, or bold at the body's size, that does not read as a sentence. */
function isHeading(
  block: Block,
  body: number,
  bodyBold: boolean,
  font: string,
  next?: Block,
  previous?: Block,
): boolean {
  // A numbered line set as a heading ("(1) Scope" in bold) is one, not a list's item.
  if (block.kind && !(block.kind === 'list-item' && (block.marker!.ordered || block.marker!.text === ''))) return false;
  const text = block.text.trim();
  if (block.lines.length > HEADING_MAX_LINES || text.length > HEADING_MAX_CHARS || text.length < 2) return false;
  if ((text.match(/\p{L}/gu)?.length ?? 0) < 2) return false;
  if (text.split(/\s+/).length > HEADING_MAX_WORDS || /[,;]$/.test(text)) return false;
  // A row of a table (its header row is often bold) or a label with its value is no heading.
  if (block.lines.some(inRuns)) return false;
  // Three words or more each standing apart, at the body's size: a table's header row set close.
  const rowOfWords = (line: LayoutLine) => (line.runs?.filter((run) => run.text.length >= 2).length ?? 0) >= 3;
  if (block.size < body * HEADING_SIZE_RATIO && block.lines.some(rowOfWords)) return false;
  if (block.size >= body * HEADING_SIZE_RATIO) return true;
  // A line or two a little bigger than the body and in another typeface, not ending as a sentence does.
  const otherFont = font !== '' && block.font !== undefined && block.font !== font;
  // (Not an item among others: a list may be set in another typeface a size up, as a word processor's list
  // style is; a numbered heading "(1) Scope" stands between paragraphs.)
  const inList = block.kind === 'list-item' && (next?.kind === 'list-item' || previous?.kind === 'list-item');
  if (otherFont && !inList && block.size >= body * OTHER_FONT_RATIO && block.lines.length <= 2 && !/[.:]$/.test(text))
    return true;
  // Bold at the body's size. A little smaller and bold heads smaller text still (a box's aside); bold over
  // text of its own size, both under the body's, is a table's header row.
  const headsSmaller = next !== undefined && next.size * HEADING_SIZE_RATIO <= block.size;
  const bigEnough = block.size >= body * 0.97 || (block.size >= body * 0.9 && headsSmaller);
  return !bodyBold && block.bold && bigEnough && !/[.:]$/.test(text) && block.lines.length <= 2;
}

/**
 * A line alone in italics at the body's size over upright text, that reads as a title: capitalised, short, one
 * sentence without its last stop (a handbook's or a paper's lowest heading; an italic note ends as a sentence does).
 */
function isItalicHeading(block: Block, body: number, next?: Block): boolean {
  const text = block.text.trim();
  return (
    block.lines.length === 1 &&
    block.lines[0]!.italic === true &&
    !block.bold &&
    textOrSection(block) &&
    block.size >= body * 0.97 &&
    next !== undefined &&
    !next.lines[0]!.italic &&
    next.size < block.size * SAME_SIZE &&
    // (It heads text: a paragraph or a list, not a label's one word in the next cell.)
    (next.kind === 'list-item' || next.text.split(/\s+/).length >= 4) &&
    /^[\p{Lu}\d]/u.test(text) &&
    text.split(/\s+/).length <= ITALIC_HEADING_MAX_WORDS &&
    // Words, ending in a letter or a number: not a formula in math italics ("B =", "3 + x"), a proof's "... □".
    /\p{L}{3}/u.test(text) &&
    !MATH.test(text) &&
    /[\p{L}\p{N}]$/u.test(text) &&
    // (One sentence: "Report. Send to: ..." is two.)
    !/[.!?]\s+\p{Lu}/u.test(text.replace(SECTION_NUMBER, ''))
  );
}

/**
 * Heading levels: each size of heading a level, bigger higher, and headings bold at the body's size the level
 * under the smallest bigger one; a numbered heading ("2.3 Results") takes its level from its number's depth,
 * counted from where the numbered ones start.
 */
function headingLevels(headings: Block[], body: number): Map<Block, number> {
  // Every size bigger than the body's makes a step of the ladder, a size used once too: a word processor's
  // "Heading 1" and "Heading 2" may each head one section of a short document.
  const bigger = headings.map((h) => h.size).filter((size) => size >= body * HEADING_SIZE_RATIO);
  const sizes: number[] = [];
  for (const size of [...bigger].sort((a, b) => b - a))
    if (!sizes.some((known) => known / size < SAME_SIZE)) sizes.push(size);
  // Italics at the body's size stand under the body's size in bold, where the document has both.
  const italicAtBody = (h: Block) => h.lines[0]!.italic === true && !h.bold && h.size < body * HEADING_SIZE_RATIO;
  const boldAtBody = headings.some((h) => h.bold && !italicAtBody(h) && h.size < body * HEADING_SIZE_RATIO);
  const rankOf = (h: Block) =>
    1 + sizes.filter((known) => known / h.size >= SAME_SIZE).length + (boldAtBody && italicAtBody(h) ? 1 : 0);
  const depthOf = (h: Block) => {
    const number = SECTION_NUMBER.exec(h.text);
    return number ? number[1]!.split('.').length : 0;
  };
  const numbered = headings.filter((h) => depthOf(h) > 0);
  const base = Math.min(...numbered.map((h) => rankOf(h) - depthOf(h) + 1));
  const levels = new Map<Block, number>();
  for (const h of headings) {
    const depth = depthOf(h);
    const level = depth > 0 && Number.isFinite(base) ? base + depth - 1 : rankOf(h);
    levels.set(h, Math.min(6, Math.max(1, level)));
  }
  return levels;
}

/**
 * Nesting of a page's list items, from how far in their markers stand: an item set in further than the one
 * before is a level deeper, one back at an earlier item's indent is at that item's level, and one standing
 * right of and above the item before (the next column) starts again at the top.
 */
function listLevels(blocks: Block[]): Map<Block, number> {
  const levels = new Map<Block, number>();
  let indents: number[] = [];
  let previous: Block | undefined;
  for (const block of blocks) {
    if (block.kind === 'page-header' || block.kind === 'page-footer') continue;
    if (block.kind !== 'list-item') {
      indents = [];
      previous = undefined;
      continue;
    }
    const indent = block.marker!.indent;
    // (Above it too: an item further in than a short one's end, under it, is nested deeper.)
    if (previous && indent >= previous.box[2] && block.box[1] < previous.box[1]) indents = [];
    while (indents.length > 0 && indents.at(-1)! > indent + 4) indents.pop();
    if (indents.length === 0 || indents.at(-1)! < indent - 4) indents.push(indent);
    levels.set(block, indents.length);
    previous = block;
  }
  return levels;
}

/**
 * The pages read as blocks in reading order, the lines of their tables (ruled, or aligned in columns) left out,
 * and `withTables`, the tables placed among them; which blocks are headings; and what element each block is.
 */
function readLayout(pages: LayoutPage[], withTables: boolean) {
  // (Not the running headers and footers: a deck's footer on every slide can outweigh its slides' text.)
  const running = runningLines(pages);
  const body = bodySize(pages, running);
  const bodyBold = bodyIsBold(pages, body);
  const font = bodyFont(pages, body);
  const spacing = lineSpacing(pages, body);
  const typed = isTyped(pages);
  const known = new HyphenatedWords();
  for (const { lines } of pages) for (const line of lines) known.add(line.text);
  const pageBlocks = pages.map((page) => {
    // A ruled table's text is its cells', apart from the page's running text; so is a table's set out in
    // aligned columns.
    const flow = inReadingOrder(
      page.lines.filter((line) => !line.cell),
      page.width,
    );
    // (Only a page with a line in runs can hold one.)
    const aligned = flow.some((line) => line.runs)
      ? alignedTables(
          flow.filter((line) => !running.has(line)),
          page.rules,
        )
      : [];
    const inTable = new Set(aligned.flatMap((table) => table.lines));
    const text = aligned.length > 0 ? flow.filter((line) => !inTable.has(line)) : flow;
    const blocks = blocksOf(text, running, known, codeLinesOf(text, typed), spacing);
    const before = new Map<Block | undefined, AlignedTable[]>();
    if (!withTables) return { page: page.page, height: page.height, blocks, aligned: before, cells: [] };
    // An aligned table stands where its lines stand in the reading order: before the block of the first line
    // after them.
    const blockOf =
      aligned.length > 0
        ? new Map(blocks.flatMap((block) => block.lines.map((line) => [line, block] as const)))
        : undefined;
    for (const table of aligned) {
      const first = Math.min(...table.lines.map((line) => flow.indexOf(line)));
      const next = flow.slice(first).find((line) => !inTable.has(line));
      const block = next && blockOf!.get(next);
      before.set(block, [...(before.get(block) ?? []), table]);
    }
    return { page: page.page, height: page.height, blocks, aligned: before, cells: page.lines.filter((l) => l.cell) };
  });
  // A line in italics at the top of a page that repeats a heading, or ends in the page's number, is the page's
  // running head, where the document is too short to show it running.
  const runningHeads = new Set<Block>();
  const candidates = pageBlocks.flatMap(({ blocks, height }) => {
    // A heading heads what follows it: one alone at the page's foot, under all its text, is a footer (a
    // typesetter keeps a heading with the text after it, so it is never the last thing on a page).
    const lowest = blocks.reduce<Block | undefined>(
      (low, block) => (block.kind?.startsWith('page-') || (low && low.box[3] >= block.box[3]) ? low : block),
      undefined,
    );
    const text = blocks.filter((block) => !block.kind?.startsWith('page-'));
    const highest = text.reduce<Block | undefined>(
      (high, block) => (high && high.box[1] <= block.box[1] ? high : block),
      undefined,
    );
    const italicHeading = (block: Block, i: number) => {
      if (!isItalicHeading(block, body, text[i + 1])) return false;
      if (block === highest && block.box[1] <= height * MARGIN_BAND) runningHeads.add(block);
      return true;
    };
    const found = text.filter(
      (block, i) =>
        (isHeading(block, body, bodyBold, font, text[i + 1], text[i - 1]) || italicHeading(block, i)) &&
        !(block === lowest && block.box[1] >= height * (1 - MARGIN_BAND)),
    );
    // Bold lines at the body's size one after another (a table's header, code, a list of names) are emphasis:
    // a heading of that kind stands alone between the text it heads and the text before it.
    const boldOnly = (block: Block | undefined) =>
      block !== undefined && block.bold && found.includes(block) && block.size < body * HEADING_SIZE_RATIO;
    return found.filter((block) => {
      if (!boldOnly(block)) return true;
      const at = blocks.indexOf(block);
      return !boldOnly(blocks[at - 1]) && !boldOnly(blocks[at + 1]);
    });
  });
  const repeated = (head: Block) =>
    candidates.some((other) => other !== head && runningKey(other.text) === runningKey(head.text));
  const headings = candidates.filter((block) => {
    if (!runningHeads.has(block) || !(/\d$/.test(block.text.trim()) || repeated(block))) return true;
    block.kind = 'page-header';
    return false;
  });
  const levels = headingLevels(headings, body);
  const isHeadingBlock = new Set(headings);
  /** The element a block of the page is (undefined where it holds no text), its list items at `nesting`. */
  const elementOf = (block: Block, page: number, nesting: Map<Block, number>): TextSegment | undefined => {
    if (block.kind === 'code') {
      const code = codeText(block.lines);
      return code.trim() ? { text: code, page, box: roundBox(block.box), kind: 'code' } : undefined;
    }
    const marked = block.marker && (isHeadingBlock.has(block) || block.size < body * FOOTNOTE_RATIO);
    const text = normalizeText(plainHyphens(marked ? block.marker!.text + block.text : block.text));
    if (!text) return undefined;
    const box = roundBox(block.box);
    if (isHeadingBlock.has(block)) return { text, page, box, kind: 'heading', level: levels.get(block)! };
    // A small note marked by a number or a footnote's sign ("∗ Peter Pan, Institute of...") is a footnote.
    const noteMark = block.marker && (block.marker.ordered || FOOTNOTE_SIGN.test(block.marker.text));
    if (block.kind === 'list-item' && noteMark && block.size < body * FOOTNOTE_RATIO)
      return { text, page, box, kind: 'footnote' };
    if (block.kind === 'list-item') {
      const { ordered, text: marker } = block.marker!;
      const number = ordered ? decimalOf(marker) : undefined;
      const level = nesting.get(block) ?? 1;
      return { text, page, box, kind: 'list-item', level, ordered, ...(number !== undefined ? { number } : {}) };
    }
    if (block.kind) return { text, page, box, kind: block.kind };
    return { text, page, box };
  };
  return { pageBlocks, isHeadingBlock, elementOf, typed };
}

/**
 * The document model of a PDF from its pages' lines: running headers and footers, headings with levels from
 * their size, weight and numbering, list items with their nesting, and paragraphs made of lines by their
 * spacing, each with its page and box. Words broken at a line's end are joined.
 */
export function layoutElements(pages: LayoutPage[]): TextSegment[] {
  const { pageBlocks, elementOf, typed } = readLayout(pages, true);
  const elements: TextSegment[] = [];
  for (const { page, blocks, aligned, cells } of pageBlocks) {
    const nesting = listLevels(blocks);
    const tables = new PageTables(elements, page, true);
    // Each ruled table stands before the first block under its top.
    const unplaced = new Map<CellPlace['table'], { top: number; lines: LayoutLine[] }>();
    for (const line of cells) {
      const table = unplaced.get(line.cell!.table);
      if (table) {
        table.lines.push(line);
        table.top = Math.min(table.top, line.box[1]);
      } else unplaced.set(line.cell!.table, { top: line.box[1], lines: [line] });
    }
    const place = (above: number) => {
      for (const [table, { top, lines }] of unplaced) {
        if (top > above) continue;
        unplaced.delete(table);
        // Code in a frame (a listing's box, or a shaded band per line): one column of lines in a fixed-pitch font.
        const column = lines[0]!.cell!.column;
        if (!typed && lines.length >= 2 && lines.every((line) => line.fixedPitch && line.cell!.column === column)) {
          const code = codeText(lines);
          if (code.trim())
            elements.push({
              text: code,
              page,
              box: roundBox(lines.map((line) => line.box).reduce(unionBox)),
              kind: 'code',
            });
          continue;
        }
        for (const line of lines) {
          const text = normalizeText(plainHyphens(line.text));
          if (text) tables.add(line.cell!, text, roundBox(line.box));
        }
      }
    };
    const addAligned = (block: Block | undefined) => {
      for (const table of aligned.get(block) ?? [])
        for (const { place: cell, text, box } of table.pieces) {
          const cellText = normalizeText(plainHyphens(text));
          if (cellText) tables.add(cell, cellText, roundBox(box));
        }
    };
    for (const block of blocks) {
      if (unplaced.size > 0) place(block.box[1]);
      addAligned(block);
      const element = elementOf(block, page, nesting);
      if (element) elements.push(element);
    }
    place(Infinity);
    addAligned(undefined);
    tables.finish();
  }
  return elements;
}

/**
 * The headings and list items of `layoutElements`, without building its tables. A table's lines are still
 * found and kept out of the blocks, as there: the lines beside them make the same blocks, and so the same
 * headings and items.
 */
export function layoutHeadingsAndItems(pages: LayoutPage[]): TextSegment[] {
  const { pageBlocks, isHeadingBlock, elementOf } = readLayout(pages, false);
  return pageBlocks.flatMap(({ page, blocks }) => {
    const nesting = listLevels(blocks);
    return blocks.flatMap((block) => {
      if (!isHeadingBlock.has(block) && block.kind !== 'list-item') return [];
      const element = elementOf(block, page, nesting);
      return element?.kind === 'heading' || element?.kind === 'list-item' ? [element] : [];
    });
  });
}

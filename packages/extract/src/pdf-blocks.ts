import { unionBox, type Box } from './document.ts';
import { joinBrokenWord, plainHyphens, type HyphenatedWords } from './pdf-hyphens.ts';
import { heightOf, type LayoutLine, type LayoutPage } from './pdf-lines.ts';
import {
  BULLET,
  CHECK_BOX,
  LETTER_BULLET,
  NUMBER,
  NUMBER_STOP_FIRST,
  OUTLINE_NUMBER,
  SECTION_NUMBER,
  TIGHT_BULLET,
} from './pdf-markers.ts';
import { normalizeText, readsRightToLeft } from './words.ts';

/** The widest gap between two lines of one code block, in line heights: a blank line goes on with the code. */
const CODE_GAP = 1.6;

/** Full lines a document needs before its own line spacing is read from them. */
const SPACING_SAMPLES = 5;

/** A full line of a paragraph is at least this share of the page's width (a column of two is about 0.4). */
const FULL_LINE = 0.35;

/** The share of a page's text width a full line of ragged-right text may stop short by. */
const RAGGED = 0.15;

/** How much wider than its usual line spacing a paragraph's gap between lines may be (a line's depth varies). */
const SPACING_ROOM = 1.3;

/** Lines of a page that read as one: a paragraph, a list's item, a code block, a running header or footer. */
export interface Block {
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

/** A line that ends a sentence or a clause, a closing quote or bracket allowed after its stop. */
const SENTENCE_END = /[.!?:;]["')\]]?\s*$/;

/** A table of contents' line: its title, dot leaders and a page number ("1.3 Scope . . . . . 4"). */
const CONTENTS_LINE = /(?:\.\s?){4,}\s*\p{Nd}+\s*$/u;

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
  const number = NUMBER.exec(text) ?? NUMBER_STOP_FIRST.exec(text);
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
export function inRuns(line: LayoutLine): boolean {
  const gaps = line.gaps?.length ?? 0;
  return gaps > 0 && gaps > (markerOf(line.text) || SECTION_NUMBER.test(line.text) ? 1 : 0);
}

/** Text, or a line numbered as a section is ("2.3 Results"), not as a list's item ("1. Reviewer"). */
export const textOrSection = (block: Block) => !block.kind || (block.kind === 'list-item' && block.marker!.text === '');

/** How a document's paragraphs set their lines: the gap between them, and how wide a full line is. */
export interface LineSpacing {
  gap: number;
  width: number;
}

/**
 * The gap a paragraph leaves between its lines, from the document's full lines at the body's size (a line over a
 * third of the page wide that runs to about the right edge of its page's text, with the next line under it): a
 * point or two when set solid, about a line's height when double spaced (a manuscript, a student's essay). No gap
 * when too few lines say.
 */
export function lineSpacing(pages: LayoutPage[], body: number): LineSpacing {
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
 * Whether `line` goes on the paragraph `block` ends with, from spacing, size, weight and what starts it, on a
 * page read left to right or (`rightToLeft`) mirrored.
 */
function continues(
  block: Block,
  line: LayoutLine,
  code: Set<LayoutLine>,
  spacing: LineSpacing,
  rightToLeft: boolean,
): boolean {
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
  const sentenceEnded = SENTENCE_END.test(last.text) || stoppedShort;
  if (marker && (!marker.ordered || block.kind === 'list-item' || sentenceEnded)) return false;
  // (A line written the other way from the page's, a Hebrew quotation in English text, ends ragged at the margin
  // the page's lines start from: the rules on margins below do not hold for it.)
  const otherWay = readsRightToLeft(block.text) !== rightToLeft;
  // A line that starts left of an item's marker is back at the text's margin: the item ended.
  if (block.kind === 'list-item' && line.box[0] < block.marker!.indent - line.size * 0.5 && !otherWay) return false;
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
  // Side by side (a table's cells, a label beside its value) rather than one under the other. (A paragraph's
  // last word alone on its line, under a full first line set in, stands clear of it at the margin.)
  const lastWord = runsOn && block.lines.length === 1 && line.box[0] < last.box[0];
  if (line.box[0] > last.box[2] || (line.box[2] < last.box[0] && !lastWord)) return false;
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
  const setIn = line.box[0] > last.box[0] + size * 0.8;
  if (!block.kind && block.lines.length >= 2 && setIn && !brokenWord && !otherWay) return false;
  // A line back at the margin after lines set in is a new block: left of every line above, after a quotation
  // set in; at the block's left edge under a line set in, a bibliography's next entry (its lines hang).
  if (!block.kind && block.lines.length >= 2 && !otherWay) {
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
export function codeText(lines: LayoutLine[]): string {
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
export function codeLinesOf(lines: LayoutLine[], typed: boolean): Set<LayoutLine> {
  const code = new Set<LayoutLine>();
  if (typed) return code;
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (line.fixedPitch && next?.fixedPitch && codeGoesOn(line, next)) code.add(line).add(next);
  });
  return code;
}

/** Whether most of a document's text is set in a fixed-pitch font (a typewritten page, a screenplay). */
export function isTyped(pages: LayoutPage[]): boolean {
  let fixed = 0;
  let all = 0;
  for (const { lines } of pages)
    for (const line of lines) {
      all += line.text.length;
      if (line.fixedPitch) fixed += line.text.length;
    }
  return fixed * 2 > all;
}

export function blocksOf(
  lines: LayoutLine[],
  running: Map<LayoutLine, 'page-header' | 'page-footer'>,
  known: HyphenatedWords,
  code: Set<LayoutLine>,
  spacing: LineSpacing,
  rightToLeft = false,
) {
  const blocks: Block[] = [];
  for (const line of lines) {
    const kind = code.has(line) ? 'code' : running.get(line);
    const current = blocks.at(-1);
    if (
      kind !== 'page-header' &&
      kind !== 'page-footer' &&
      current &&
      continues(current, line, code, spacing, rightToLeft)
    )
      addLine(current, line, known);
    else blocks.push(startBlock(line, kind, current?.kind === 'list-item'));
  }
  return blocks;
}

/**
 * A list item that goes on at the top of the next page: the page's first block of text, a paragraph at the
 * item's hanging indent (where its second line stands) in its size and weight, after an item whose last line
 * did not end a sentence. Its text joins the item's, whose box stays on the page it starts on. (Not a block that
 * something else is placed by: `movable` says which may go.)
 */
export function joinItemsAcrossPages(
  pages: Block[][],
  known: HyphenatedWords,
  movable: (block: Block) => boolean,
): void {
  const isText = (block: Block) => block.kind !== 'page-header' && block.kind !== 'page-footer';
  for (let p = 1; p < pages.length; p++) {
    const item = pages[p - 1]!.findLast(isText);
    const at = pages[p]!.findIndex(isText);
    const next = pages[p]![at];
    if (item?.kind !== 'list-item' || item.lines.length < 2 || !next || next.kind || !movable(next)) continue;
    const last = item.lines.at(-1)!;
    const first = next.lines[0]!;
    const hanging = Math.abs(first.box[0] - item.lines[1]!.box[0]) <= first.size * 0.5;
    const alike = first.bold === last.bold && Math.abs(first.size - last.size) <= last.size * 0.1;
    if (!hanging || !alike || SENTENCE_END.test(last.text)) continue;
    item.text = joinBrokenWord(item.text, next.text, known) ?? `${item.text}\n${next.text}`;
    pages[p]!.splice(at, 1);
  }
}

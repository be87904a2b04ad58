import { inRuns, textOrSection, type Block } from './pdf-blocks.ts';
import { HEADING_SIZE_RATIO, type BodyText } from './pdf-body.ts';
import type { LayoutLine } from './pdf-lines.ts';
import { SECTION_NUMBER } from './pdf-markers.ts';
import { MARGIN_BAND, runningHeadsAmong } from './pdf-running.ts';

/** ...or, set in another typeface than the body's (a sans-serif heading over serif text), how much bigger. */
const OTHER_FONT_RATIO = 1.05;

/** A heading is short: at most this many lines, characters and words. */
const HEADING_MAX_LINES = 3;
const HEADING_MAX_CHARS = 160;
const HEADING_MAX_WORDS = 20;

/** Signs of a formula: operators, and the math alphabets of Unicode (𝐵, 𝑥). */
const MATH = /[=+−×·÷<>≤≥∑∫|]|[\u{1D400}-\u{1D7FF}]/u;

/** An italic heading is a title of a few words; a longer italic line is a note or an aside. */
const ITALIC_HEADING_MAX_WORDS = 10;

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
 * The headings among pages' blocks (in order), by `isHeading` and `isItalicHeading`. A page's running head found
 * among them is marked `page-header` and left out.
 */
export function headingBlocks(pages: { blocks: Block[]; height: number }[], body: BodyText): Block[] {
  const inItalics = new Set<Block>();
  const candidates = pages.flatMap(({ blocks, height }) => {
    // A heading heads what follows it: one alone at the page's foot, under all its text, is a footer (a
    // typesetter keeps a heading with the text after it, so it is never the last thing on a page).
    const lowest = blocks.reduce<Block | undefined>(
      (low, block) => (block.kind?.startsWith('page-') || (low && low.box[3] >= block.box[3]) ? low : block),
      undefined,
    );
    const text = blocks.filter((block) => !block.kind?.startsWith('page-'));
    const italicHeading = (block: Block, i: number) => {
      if (!isItalicHeading(block, body.size, text[i + 1])) return false;
      inItalics.add(block);
      return true;
    };
    const found = text.filter(
      (block, i) =>
        (isHeading(block, body.size, body.bold, body.font, text[i + 1], text[i - 1]) || italicHeading(block, i)) &&
        !(block === lowest && block.box[1] >= height * (1 - MARGIN_BAND)),
    );
    // Bold lines at the body's size one after another (a table's header, code, a list of names) are emphasis:
    // a heading of that kind stands alone between the text it heads and the text before it.
    const boldOnly = (block: Block | undefined) =>
      block !== undefined && block.bold && found.includes(block) && block.size < body.size * HEADING_SIZE_RATIO;
    return found.filter((block) => {
      if (!boldOnly(block)) return true;
      const at = blocks.indexOf(block);
      return !boldOnly(blocks[at - 1]) && !boldOnly(blocks[at + 1]);
    });
  });
  const running = runningHeadsAmong(candidates, inItalics, pages);
  for (const block of running) block.kind = 'page-header';
  return candidates.filter((block) => !running.has(block));
}

/**
 * Heading levels: each size of heading a level, bigger higher, and headings bold at the body's size the level
 * under the smallest bigger one; a numbered heading ("2.3 Results") takes its level from its number's depth,
 * counted from where the numbered ones start.
 */
export function headingLevels(headings: Block[], body: number): Map<Block, number> {
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
  // (A ladder of many sizes, a title page's, must not push the deepest numbers past level 6 into one level.)
  const deepest = Math.max(...numbered.map(depthOf));
  const base = Math.min(7 - deepest, ...numbered.map((h) => rankOf(h) - depthOf(h) + 1));
  const levels = new Map<Block, number>();
  for (const h of headings) {
    const depth = depthOf(h);
    const level = depth > 0 && Number.isFinite(base) ? base + depth - 1 : rankOf(h);
    levels.set(h, Math.min(6, Math.max(1, level)));
  }
  return levels;
}

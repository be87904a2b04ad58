import { isTyped, type Block } from './pdf-blocks.ts';
import { HEADING_SIZE_RATIO } from './pdf-body.ts';
import { heightOf, type LayoutLine, type LayoutPage } from './pdf-lines.ts';

/** The share of the page's height at its top and bottom where running headers and footers stand. */
export const MARGIN_BAND = 0.12;
/**
 * ...and where lines repeated on other pages, and page numbers, may stand (a book's running head and page number
 * stand a little further in than a word processor's header and footer).
 */
const RUNNING_BAND = 0.15;

const PAGE_NUMBER = /^\s*(page\s*)?(#+|[ivxlc]+)(\s*(of|\/)\s*#+)?\s*$/i;

/** A line without letters that is more than a number set off by dashes or brackets: a listing's "97 }%". */
const CODE_LIKE = /^[^\p{L}]*[^\p{L}\s#\-–—|/.()[\]][^\p{L}]*$/u;

/** A line's text with digits (of any script) masked, so "Page 3" and "Page 4" are the same running footer. */
const runningKey = (text: string) =>
  text
    .replace(/\p{Nd}+/gu, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * Lines repeated at the top or the bottom of pages (numbers masked), and lone page numbers there: running
 * headers and footers: each line that is one, with its kind.
 */
export function runningLines(
  pages: LayoutPage[],
  typed = isTyped(pages),
): Map<LayoutLine, 'page-header' | 'page-footer'> {
  const candidates: { line: LayoutLine; key: string; kind: 'page-header' | 'page-footer' }[] = [];
  // (A listing's lines, set in a fixed-pitch font, repeat at the tops of its pages: "97 }%"; not in a document
  // typed in one, `typed`.)
  /** Per kind and key, the pages it stands on (each half of a spread printed on one page a page) and its smallest size. */
  const groups = new Map<string, { pages: Set<string>; smallest: number }>();
  for (const { lines, height, width, page } of pages) {
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
    const running = (line: LayoutLine) => typed || !line.fixedPitch;
    const top = sorted.slice(0, 2).filter((l) => running(l) && l.box[3] <= height * RUNNING_BAND && apart(l, 1));
    const bottom = sorted
      .slice(-2)
      .filter((l) => running(l) && l.box[1] >= height * (1 - RUNNING_BAND) && apart(l, -1));
    const add = (line: LayoutLine, kind: 'page-header' | 'page-footer') => {
      const key = runningKey(line.text);
      candidates.push({ line, key, kind });
      const group = groups.get(`${kind}:${key}`) ?? { pages: new Set<string>(), smallest: Infinity };
      group.pages.add(`${page}:${line.box[0] < width / 2 ? 'left' : 'right'}`);
      group.smallest = Math.min(group.smallest, line.size);
      groups.set(`${kind}:${key}`, group);
    };
    for (const line of top) add(line, 'page-header');
    for (const line of bottom) if (!top.includes(line)) add(line, 'page-footer');
  }
  const repeatedAt = pages.length <= 4 ? 2 : 3;
  const found = new Map<LayoutLine, 'page-header' | 'page-footer'>();
  for (const { line, key, kind } of candidates) {
    // (Repeated on other pages: two paragraphs alike at the top of one page are its text. A chapter's heading on
    // its first page, set bigger than the running heads that repeat it, heads the page.)
    const { pages: on, smallest } = groups.get(`${kind}:${key}`)!;
    const repeated = on.size >= repeatedAt && line.size < smallest * HEADING_SIZE_RATIO && !CODE_LIKE.test(key);
    if (key && (repeated || PAGE_NUMBER.test(key))) found.set(line, kind);
  }
  return found;
}

/**
 * Whether a page's highest block stands apart over text: more than a line's height over the next block. (Not a
 * table of contents' first line, which ends in a number as a running head does, nor its last line alone at the
 * top of a page.)
 */
function standsOver(highest: Block, blocks: Block[]): boolean {
  const under = Math.min(...blocks.map((block) => block.box[1]).filter((top) => top >= highest.box[3]));
  return Number.isFinite(under) && under - highest.box[3] > heightOf(highest.box);
}

/** The block highest on a page, its running lines left out, where it stands in the top band apart over the rest. */
function standingAtTop(blocks: Block[], height: number): Block | undefined {
  const text = blocks.filter((block) => !block.kind?.startsWith('page-'));
  const highest = text.reduce<Block | undefined>(
    (high, block) => (high && high.box[1] <= block.box[1] ? high : block),
    undefined,
  );
  return highest && highest.box[1] <= height * MARGIN_BAND && standsOver(highest, text) ? highest : undefined;
}

/**
 * The headings found that are pages' running heads, where the document is too short to show them running (or its
 * running heads change with each section): at the top of a page, apart over its text, a heading that repeats
 * another with the page's number ("1.2 Basics 3" over page 3, where "1.2 Basics" heads a section), or a line in
 * italics (`italic`) that repeats a heading or ends in a number.
 */
export function runningHeadsAmong(
  headings: Block[],
  italic: Set<Block>,
  pages: { blocks: Block[]; height: number }[],
): Set<Block> {
  const atTop = new Set(pages.map(({ blocks, height }) => standingAtTop(blocks, height)));
  const headingKeys = new Set(headings.map((block) => runningKey(block.text)));
  const repeated = (head: Block) =>
    headings.some((other) => other !== head && runningKey(other.text) === runningKey(head.text));
  const endsInNumber = (head: Block) => /\p{Nd}$/u.test(head.text.trim());
  return new Set(
    headings.filter((head) => {
      if (!atTop.has(head)) return false;
      if (italic.has(head)) return endsInNumber(head) || repeated(head);
      return endsInNumber(head) && headingKeys.has(runningKey(head.text.trim().replace(/\s*\p{Nd}+$/u, '')));
    }),
  );
}

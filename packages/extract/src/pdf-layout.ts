import { roundBox, unionBox, type Box } from './document.ts';
import { alignedTables, type AlignedTable } from './pdf-aligned-tables.ts';
import {
  blocksOf,
  codeLinesOf,
  codeText,
  isTyped,
  joinItemsAcrossPages,
  lineSpacing,
  type Block,
} from './pdf-blocks.ts';
import type { CellPlace } from './pdf-grids.ts';
import { HEADING_SIZE_RATIO, headingLevels, isHeading, isItalicHeading } from './pdf-headings.ts';
import { HyphenatedWords, plainHyphens } from './pdf-hyphens.ts';
import { heightOf, type LayoutLine, type LayoutPage } from './pdf-lines.ts';
import { decimalOf } from './pdf-markers.ts';
import { mirrorBox, mirrorPage, pagesReadingRightToLeft } from './pdf-mirror.ts';
import { PageTables } from './pdf-tables.ts';
import type { TextSegment } from './types.ts';
import { normalizeText } from './words.ts';

/** The share of the page's height at its top and bottom where running headers and footers stand. */
const MARGIN_BAND = 0.12;
/**
 * ...and where lines repeated on other pages, and page numbers, may stand (a book's running head and page number
 * stand a little further in than a word processor's header and footer).
 */
const RUNNING_BAND = 0.15;
/** A footnote's sign, where it marks a note rather than numbers it. */
const FOOTNOTE_SIGN = /^\s*[∗*†‡§]/u;
/** A numbered note set this much smaller than the body text is a footnote, not a list's item. */
const FOOTNOTE_RATIO = 0.9;

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

/**
 * Lines repeated at the top or the bottom of pages (numbers masked), and lone page numbers there: running
 * headers and footers. Returns, per page index, the indices of its lines that are one, with their kind.
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

/**
 * Nesting of the list items of pages' blocks, from how far in their markers stand: an item set in further than
 * the one before is a level deeper, one back at an earlier item's indent is at that item's level, and one standing
 * right of and above the item before (the next column) starts again at the top. A list that goes on at the top
 * of the next page keeps its nesting there.
 */
function listLevels(pages: Block[][]): Map<Block, number> {
  const levels = new Map<Block, number>();
  let indents: number[] = [];
  for (const blocks of pages) {
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
  }
  return levels;
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

/**
 * The pages read as blocks in reading order, the lines of their tables (ruled, or aligned in columns) left out,
 * and `withTables`, the tables placed among them; which blocks are headings; and what element each block is.
 */
function readLayout(pagesAsDrawn: LayoutPage[], withTables: boolean) {
  const widthsOfMirrored = new Map<number, number>();
  const fromTheRight = pagesReadingRightToLeft(pagesAsDrawn);
  const pages = pagesAsDrawn.map((page) => {
    if (!fromTheRight.has(page.page)) return page;
    widthsOfMirrored.set(page.page, page.width);
    return mirrorPage(page);
  });
  /** A box of the page read, rounded, as it stands on the page drawn (a right-to-left page was read mirrored). */
  const onPage = (page: number, box: Box): Box => {
    const width = widthsOfMirrored.get(page);
    return roundBox(width === undefined ? box : mirrorBox(box, width));
  };
  const typed = isTyped(pages);
  const running = runningLines(pages, typed);
  // (Not the running headers and footers: a deck's footer on every slide can outweigh its slides' text.)
  const body = bodySize(pages, running);
  const bodyBold = bodyIsBold(pages, body);
  const font = bodyFont(pages, body);
  const spacing = lineSpacing(pages, body);
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
    const rightToLeft = widthsOfMirrored.has(page.page);
    const blocks = blocksOf(text, running, known, codeLinesOf(text, typed), spacing, rightToLeft);
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
  // (An aligned table stands before the block after it.)
  const placesTable = new Set(pageBlocks.flatMap(({ aligned }) => [...aligned.keys()]));
  joinItemsAcrossPages(
    pageBlocks.map(({ blocks }) => blocks),
    known,
    (block) => !placesTable.has(block),
  );
  // A heading at the top of a page that repeats a heading with the page's number, or a line in italics there
  // that repeats a heading or ends in a number, is the page's running head, where the document is too short to
  // show it running (or its running heads change with each section).
  const atTop = new Set<Block>();
  const inItalics = new Set<Block>();
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
    if (highest && highest.box[1] <= height * MARGIN_BAND && standsOver(highest, text)) atTop.add(highest);
    const italicHeading = (block: Block, i: number) => {
      if (!isItalicHeading(block, body, text[i + 1])) return false;
      inItalics.add(block);
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
  const headingKeys = new Set(candidates.map((block) => runningKey(block.text)));
  const repeated = (head: Block) =>
    candidates.some((other) => other !== head && runningKey(other.text) === runningKey(head.text));
  const endsInNumber = (head: Block) => /\p{Nd}$/u.test(head.text.trim());
  const isRunningHead = (head: Block) => {
    if (!atTop.has(head)) return false;
    if (inItalics.has(head)) return endsInNumber(head) || repeated(head);
    // ("1.2 Basics 3" over page 3, where "1.2 Basics" heads a section.)
    return endsInNumber(head) && headingKeys.has(runningKey(head.text.trim().replace(/\s*\p{Nd}+$/u, '')));
  };
  const headings = candidates.filter((block) => {
    if (!isRunningHead(block)) return true;
    block.kind = 'page-header';
    return false;
  });
  const levels = headingLevels(headings, body);
  const isHeadingBlock = new Set(headings);
  /** The element a block of the page is (undefined where it holds no text), its list items at `nesting`. */
  const elementOf = (block: Block, page: number, nesting: Map<Block, number>): TextSegment | undefined => {
    if (block.kind === 'code') {
      const code = codeText(block.lines);
      return code.trim() ? { text: code, page, box: onPage(page, block.box), kind: 'code' } : undefined;
    }
    const marked = block.marker && (isHeadingBlock.has(block) || block.size < body * FOOTNOTE_RATIO);
    const text = normalizeText(plainHyphens(marked ? block.marker!.text + block.text : block.text));
    if (!text) return undefined;
    const box = onPage(page, block.box);
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
  return { pageBlocks, isHeadingBlock, elementOf, typed, onPage };
}

/**
 * The document model of a PDF from its pages' lines: running headers and footers, headings with levels from
 * their size, weight and numbering, list items with their nesting, and paragraphs made of lines by their
 * spacing, each with its page and box. Words broken at a line's end are joined.
 */
export function layoutElements(pages: LayoutPage[]): TextSegment[] {
  const { pageBlocks, elementOf, typed, onPage } = readLayout(pages, true);
  const elements: TextSegment[] = [];
  const nesting = listLevels(pageBlocks.map(({ blocks }) => blocks));
  for (const { page, blocks, aligned, cells } of pageBlocks) {
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
          if (cellText) tables.add(cell, cellText, onPage(page, box));
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
  const nesting = listLevels(pageBlocks.map(({ blocks }) => blocks));
  return pageBlocks.flatMap(({ page, blocks }) => {
    return blocks.flatMap((block) => {
      if (!isHeadingBlock.has(block) && block.kind !== 'list-item') return [];
      const element = elementOf(block, page, nesting);
      return element?.kind === 'heading' || element?.kind === 'list-item' ? [element] : [];
    });
  });
}

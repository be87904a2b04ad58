import { roundBox, unionBox } from './document.ts';
import { alignedTables, type AlignedTable } from './pdf-aligned-tables.ts';
import {
  blocksOf,
  codeLinesOf,
  codeText,
  isTyped,
  joinItemsAcrossPages,
  lineSpacing,
  type Block,
  type LineSpacing,
} from './pdf-blocks.ts';
import { bodyText } from './pdf-body.ts';
import type { CellPlace } from './pdf-grids.ts';
import { headingBlocks, headingLevels } from './pdf-headings.ts';
import { HyphenatedWords, plainHyphens } from './pdf-hyphens.ts';
import type { LayoutLine, LayoutPage } from './pdf-lines.ts';
import { decimalOf } from './pdf-markers.ts';
import { pagesAsRead } from './pdf-mirror.ts';
import { runningLines } from './pdf-running.ts';
import { PageTables } from './pdf-tables.ts';
import type { TextSegment } from './types.ts';
import { normalizeText } from './words.ts';

/** A footnote's sign, where it marks a note rather than numbers it. */
const FOOTNOTE_SIGN = /^\s*[∗*†‡§]/u;
/** A numbered note set this much smaller than the body text is a footnote, not a list's item. */
const FOOTNOTE_RATIO = 0.9;

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

/** A page read as blocks, the tables among them, and its lines in ruled tables' cells. */
interface PageBlocks {
  page: number;
  height: number;
  blocks: Block[];
  /** The tables set out in aligned columns, by the block each stands before (undefined: after the last). */
  aligned: Map<Block | undefined, AlignedTable[]>;
  cells: LayoutLine[];
}

/** What reading a page's blocks needs to know of the whole document. */
interface DocumentReading {
  running: Map<LayoutLine, 'page-header' | 'page-footer'>;
  known: HyphenatedWords;
  typed: boolean;
  spacing: LineSpacing;
}

/**
 * A page read as blocks in reading order, the lines of its tables (ruled, or aligned in columns) left out of them,
 * and with `withTables`, the tables placed among them.
 */
function pageBlocksOf(
  page: LayoutPage,
  rightToLeft: boolean,
  document: DocumentReading,
  withTables: boolean,
): PageBlocks {
  const { running, known, typed, spacing } = document;
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
  const blocks = blocksOf(text, running, known, codeLinesOf(text, typed), spacing, rightToLeft);
  const before = new Map<Block | undefined, AlignedTable[]>();
  const read: PageBlocks = { page: page.page, height: page.height, blocks, aligned: before, cells: [] };
  if (!withTables) return read;
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
  return { ...read, cells: page.lines.filter((l) => l.cell) };
}

/**
 * The pages read as blocks in reading order (`pageBlocksOf`), right-to-left pages mirrored; which blocks are
 * headings; and what element each block is.
 */
function readLayout(pagesAsDrawn: LayoutPage[], withTables: boolean) {
  const { pages, rightToLeft, onPage } = pagesAsRead(pagesAsDrawn);
  const typed = isTyped(pages);
  const running = runningLines(pages, typed);
  const body = bodyText(pages, running);
  const known = new HyphenatedWords();
  for (const { lines } of pages) for (const line of lines) known.add(line.text);
  const document: DocumentReading = { running, known, typed, spacing: lineSpacing(pages, body.size) };
  const pageBlocks = pages.map((page) => pageBlocksOf(page, rightToLeft(page.page), document, withTables));
  // (An aligned table stands before the block after it.)
  const placesTable = new Set(pageBlocks.flatMap(({ aligned }) => [...aligned.keys()]));
  joinItemsAcrossPages(
    pageBlocks.map(({ blocks }) => blocks),
    known,
    (block) => !placesTable.has(block),
  );
  const headings = headingBlocks(pageBlocks, body);
  const levels = headingLevels(headings, body.size);
  const isHeadingBlock = new Set(headings);
  /** The element a block of the page is (undefined where it holds no text), its list items at `nesting`. */
  const elementOf = (block: Block, page: number, nesting: Map<Block, number>): TextSegment | undefined => {
    if (block.kind === 'code') {
      const code = codeText(block.lines);
      return code.trim() ? { text: code, page, box: onPage(page, block.box), kind: 'code' } : undefined;
    }
    const marked = block.marker && (isHeadingBlock.has(block) || block.size < body.size * FOOTNOTE_RATIO);
    const text = normalizeText(plainHyphens(marked ? block.marker!.text + block.text : block.text));
    if (!text) return undefined;
    const box = onPage(page, block.box);
    if (isHeadingBlock.has(block)) return { text, page, box, kind: 'heading', level: levels.get(block)! };
    // A small note marked by a number or a footnote's sign ("∗ Peter Pan, Institute of...") is a footnote.
    const noteMark = block.marker && (block.marker.ordered || FOOTNOTE_SIGN.test(block.marker.text));
    if (block.kind === 'list-item' && noteMark && block.size < body.size * FOOTNOTE_RATIO)
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

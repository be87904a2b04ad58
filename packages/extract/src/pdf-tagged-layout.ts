import { roundBox, unionBox, type Box } from './document.ts';
import type { CellPlace } from './pdf-grids.ts';
import { HyphenatedWords, joinBrokenWord, plainHyphens } from './pdf-hyphens.ts';
import { markerOf } from './pdf-blocks.ts';
import { bodySize } from './pdf-body.ts';
import { layoutHeadingsAndItems } from './pdf-layout.ts';
import { runningLines } from './pdf-running.ts';
import type { LayoutLine, LayoutPage } from './pdf-lines.ts';
import { CHECK_BOX, decimalOf } from './pdf-markers.ts';
import { PageTables } from './pdf-tables.ts';
import type { LineTag } from './pdf-tags.ts';
import type { TextSegment } from './types.ts';
import { normalizeText } from './words.ts';

/** The share of a document's text that must stand in its structure tree for the tree to be read. */
const TAGGED_SHARE = 0.5;

/**
 * Whether a PDF's structure tree is worth reading: most of its text is tagged. (A tree that tags every block P
 * still gives the author's blocks and reading order; the page's look adds the headings and lists.)
 */
export function readsByTags(pages: LayoutPage[]): boolean {
  let tagged = 0;
  let all = 0;
  for (const { lines } of pages)
    for (const line of lines) {
      const length = line.text.trim().length;
      all += length;
      if (line.tag) tagged += length;
    }
  return all > 0 && tagged >= all * TAGGED_SHARE;
}

interface TaggedBlock {
  tag?: LineTag;
  text: string;
  box: Box;
  last: LayoutLine;
  /** The biggest font size among its lines, and how many printed lines it takes. */
  size: number;
  lines: number;
}

/** Two pieces of one printed line (a list's label and its text, a link inside a sentence). */
const onOneLine = (a: Box, b: Box) => Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > (a[3] - a[1]) / 2;
const clean = (text: string) => normalizeText(plainHyphens(text));

/**
 * The page's lines in the tree's order (the reading order the author gave), text outside the tree staying
 * after the line it followed in the content.
 */
function inTreeOrder(lines: LayoutLine[]): LayoutLine[] {
  let order = 0;
  return lines
    .map((line, at) => {
      if (line.tag) order = line.tag.order;
      return { line, order, at };
    })
    .sort((a, b) => a.order - b.order || a.at - b.at)
    .map(({ line }) => line);
}

function blocksOf(lines: LayoutLine[], known: HyphenatedWords): TaggedBlock[] {
  const blocks: TaggedBlock[] = [];
  for (const line of lines) {
    const current = blocks.at(-1);
    if (current && current.tag?.block === line.tag?.block) {
      if (onOneLine(current.last.box, line.box))
        current.text = /\s$/.test(current.text) ? current.text + line.text.trimStart() : `${current.text} ${line.text}`;
      else {
        current.text = joinBrokenWord(current.text, line.text, known) ?? `${current.text}\n${line.text}`;
        current.lines++;
      }
      current.box = unionBox(current.box, line.box);
      current.last = line;
      current.size = Math.max(current.size, line.size);
    } else
      blocks.push({
        ...(line.tag ? { tag: line.tag } : {}),
        text: line.text,
        box: line.box,
        last: line,
        size: line.size,
        lines: 1,
      });
  }
  return blocks;
}

/**
 * A tagged list item's label before its text: a number (bare too: the tree says it is an item), or a letter or
 * roman numeral with its stop ("a.", "iv)"; a bare "A" starts a sentence).
 */
const BARE_LABEL = /^\s*(\d{1,3}[.)]?|[a-z][.)]|[ivxlc]{1,5}[.)])\s+(?=\S)/iu;
/** The title's limits: a line or two, a few words. */
const TITLE_MAX_LINES = 2;
const TITLE_MAX_WORDS = 20;
/** How much bigger than the body text a title is set. */
const TITLE_SIZE_RATIO = 1.15;

const bareLabel = (text: string) => {
  const label = BARE_LABEL.exec(text);
  return label ? { ordered: true, length: label[0].length, kept: false } : undefined;
};

/**
 * The document's title: its first block, tagged as a paragraph (producers map a "Title" style to P), short, and
 * set bigger than the body and than every tagged heading.
 */
function titleOf(firstPage: TaggedBlock[], pages: LayoutPage[]): TaggedBlock | undefined {
  const first = firstPage.find((block) => block.tag);
  if (!first || first.tag!.kind !== 'paragraph') return undefined;
  const text = first.text.trim();
  if (first.lines > TITLE_MAX_LINES || text.split(/\s+/).length > TITLE_MAX_WORDS || /[.:,;]$/.test(text))
    return undefined;
  const body = bodySize(pages);
  let biggestHeading = 0;
  for (const { lines } of pages)
    for (const line of lines) if (line.tag?.kind === 'heading') biggestHeading = Math.max(biggestHeading, line.size);
  return first.size >= body * TITLE_SIZE_RATIO && first.size > biggestHeading ? first : undefined;
}

/**
 * The document model of a tagged PDF from its structure tree: headings at their tagged levels, list items at
 * their lists' depth, tables by their rows and cells, and paragraphs, each block's lines joined (words broken
 * at a line's end too), in the tree's order. Text outside the tree repeated at the pages' top or foot is a
 * running header or footer; any other is a paragraph, so no text is lost.
 */
export function taggedElements(pages: LayoutPage[]): TextSegment[] {
  const elements = fromTheTree(pages);
  const tagged = new Set<string>();
  for (const { lines } of pages) for (const line of lines) if (line.tag) tagged.add(line.tag.kind);
  // A tree that tags lists but no heading (or headings but no list) left them out knowingly.
  return tagged.has('heading') || tagged.has('list-item') ? elements : withTheLooksStructure(elements, pages);
}

/** A paragraph's words, for finding the same text in two readings that break lines apart differently. */
const sameTextKey = (page: number | undefined, text: string) => `${page}:${text.replace(/\s+/g, '')}`;

/**
 * A tree that tags neither headings nor lists says nothing either way about them: some producers tag every
 * block P but a table's cells. There, a tagged paragraph that the page's look reads as a heading (by its size
 * and weight) or as a list's item (by its bullet or number) is one, at the look's level; the tree keeps its
 * order, its tables and its paragraphs.
 */
function withTheLooksStructure(elements: TextSegment[], pages: LayoutPage[]): TextSegment[] {
  const looks = new Map<string, TextSegment>();
  for (const element of layoutHeadingsAndItems(pages)) looks.set(sameTextKey(element.page, element.text), element);
  if (looks.size === 0) return elements;
  return elements.map((element) => {
    if (element.kind) return element;
    const marker = markerOf(element.text);
    const look =
      looks.get(sameTextKey(element.page, element.text)) ??
      (marker ? looks.get(sameTextKey(element.page, element.text.slice(marker.length))) : undefined);
    if (!look) return element;
    const { text, kind, level, ordered, number } = look;
    return {
      ...element,
      text,
      kind,
      level,
      ...(kind === 'list-item' ? { ordered } : {}),
      ...(number !== undefined ? { number } : {}),
    };
  });
}

/** The document model as the tree tags it (see `taggedElements`). */
function fromTheTree(pages: LayoutPage[]): TextSegment[] {
  const running = runningLines(pages);
  const known = new HyphenatedWords();
  for (const { lines } of pages) for (const line of lines) known.add(line.text);
  const pageBlocks = pages.map(({ page, lines }) => ({ page, blocks: blocksOf(inTreeOrder(lines), known) }));
  const title = titleOf(pageBlocks[0]?.blocks ?? [], pages);
  // Under a title, the tagged headings are a level down, as a word processor's "Heading 1" is under its "Title".
  const shift = title ? 1 : 0;
  const elements: TextSegment[] = [];
  for (const { page, blocks } of pageBlocks) {
    const tables = new PageTables(elements, page);
    // A list's label tagged apart from a heading it numbers ("2." then "Methods"): kept for the heading.
    let label = '';
    for (const block of blocks) {
      const box = roundBox(block.box);
      const { tag } = block;
      const runningKind = !tag ? running.get(block.last) : undefined;
      if (runningKind) {
        const text = clean(block.text);
        if (text) elements.push({ text, page, box, kind: runningKind });
        continue;
      }
      if (tag?.kind === 'cell') {
        const text = clean(block.text);
        if (text) tables.add(tag as CellPlace, text, box);
        continue;
      }
      if (tag?.kind === 'list-item') {
        // The item's label, where its text holds one ("•", "2."), is its marker; a number of several levels
        // ("2.3.1") stays in the text, as the page-read layout keeps it.
        const marker = markerOf(block.text, true) ?? bareLabel(block.text);
        const text = clean(marker && !marker.kept ? block.text.slice(marker.length) : block.text);
        if (!/[\p{L}\p{N}]/u.test(text) || (!marker && /^\s*\S{1,4}\s*$/.test(block.text))) {
          label = `${block.text.trim()} `;
          continue;
        }
        const ordered = marker?.ordered ?? false;
        // The label's number where it is a plain decimal: a list the tree resumes after a paragraph keeps its place.
        const number = ordered && !marker!.kept ? decimalOf(block.text.slice(0, marker!.length)) : undefined;
        elements.push({
          text,
          page,
          box,
          kind: 'list-item',
          level: Math.max(1, tag.level ?? 1),
          ordered,
          ...(number !== undefined ? { number } : {}),
        });
        label = '';
        continue;
      }
      const text = clean(label + block.text);
      label = '';
      if (!text) continue;
      if (block === title) elements.push({ text, page, box, kind: 'heading', level: 1 });
      // A paragraph that starts with a check box is a check list's item.
      else if (tag?.kind === 'paragraph' && CHECK_BOX.test(text))
        elements.push({ text, page, box, kind: 'list-item', level: 1, ordered: false });
      else if (!tag || tag.kind === 'paragraph') elements.push({ text, page, box });
      else if (tag.kind === 'heading')
        elements.push({ text, page, box, kind: 'heading', level: Math.min(6, (tag.level ?? 1) + shift) });
      else elements.push({ text, page, box, kind: tag.kind });
    }
    tables.finish();
  }
  return elements.filter((element) => element.text.trim() || element.rows);
}

import { ownNumber, type TableCell } from './document.ts';
import type { TextSegment } from './types.ts';

export interface MarkdownOptions {
  /** The address a figure's stored image is linked with (a signed URL); without it a figure is its caption. */
  imageUrl?: (image: string) => string | undefined;
}

/** Characters that start a block or an inline span in CommonMark wherever they stand. */
const INLINE_SPECIAL = /[\\`*_[\]<>|]/g;
/** What starts a block at the beginning of a line: headings, quotes, list markers, thematic breaks, setext lines. */
const BLOCK_START = /^(\s*)(#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|=+\s*$|(\d{1,9})([.)])(?=\s|$)|~~~|-{3,}\s*$)/;

/** Text inside a heading or a table cell, where no block can start: only inline markers are escaped. */
const escapeInline = (text: string) => text.replace(INLINE_SPECIAL, (char) => `\\${char}`);

/** Text that reads as itself in Markdown: inline markers escaped, and a line that would open a block defused. */
export function escapeMarkdown(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const escaped = line.replace(INLINE_SPECIAL, (char) => `\\${char}`);
      return escaped.replace(BLOCK_START, (_whole, indent: string, marker: string, digits?: string, mark?: string) =>
        digits !== undefined ? `${indent}${digits}\\${mark}` : `${indent}\\${marker}`,
      );
    })
    .join('\n');
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * A table's rows laid on a grid: a cell spanning rows or columns fills each place it covers with its text, on one line
 * unless `textOf` writes it otherwise.
 */
export function tableGrid(
  rows: TableCell[][],
  textOf: (text: string) => string = oneLine,
): { cells: string[][]; headerRows: number } {
  const grid: string[][] = [];
  rows.forEach((row, rowIndex) => {
    const line = (grid[rowIndex] ??= []);
    let column = 0;
    for (const cell of row) {
      while (line[column] !== undefined) column++;
      const rowSpan = Math.max(1, Math.min(cell.rowSpan ?? 1, rows.length - rowIndex));
      const colSpan = Math.max(1, Math.min(cell.colSpan ?? 1, 1000));
      for (let r = 0; r < rowSpan; r++) {
        grid[rowIndex + r] ??= [];
        for (let c = 0; c < colSpan; c++) grid[rowIndex + r]![column + c] = textOf(cell.text);
      }
      column += colSpan;
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  const cells = grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  let headerRows = 0;
  while (headerRows < rows.length && rows[headerRows]!.length > 0 && rows[headerRows]!.every((cell) => cell.header))
    headerRows++;
  return { cells, headerRows };
}

/** A check box at the start of an item's text, as Word and the office readers write it. */
const CHECK_BOX = /^([☐☑☒])\s*/u;

/** A check box as GFM's task marker, `[x]` or `[ ]`. */
const taskMarker = (box: string) => (box === '☐' ? '[ ]' : '[x]');

/**
 * A cell's text on one line of a GFM table. A list in the cell (its lines start with plain text's bullet, `* `) is
 * written as the body writes lists, `- item`, and a check box before an item as its task marker, `- [x] item`.
 */
function cellMarkdown(text: string): string {
  return oneLine(
    text
      .split('\n')
      .map((line) => {
        const item = /^\s*\* (.*)$/.exec(line);
        if (!item) return escapeInline(line);
        const task = CHECK_BOX.exec(item[1]!);
        const rest = escapeInline(task ? item[1]!.slice(task[0].length) : item[1]!);
        return `- ${task ? `${taskMarker(task[1]!)} ` : ''}${rest}`;
      })
      .join('\n'),
  );
}

function renderTable(rows: TableCell[][]): string {
  const { cells } = tableGrid(rows, (text) => text);
  if (cells.length === 0 || cells[0]!.length === 0) return '';
  const line = (row: string[]) => `| ${row.map((cell) => cellMarkdown(cell) || ' ').join(' | ')} |`;
  // GFM needs a header row: the table's first row is it, whether or not the source marked it as one.
  const [head, ...body] = cells;
  return [line(head!), `|${head!.map(() => '---').join('|')}|`, ...body.map(line)].join('\n');
}

function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language.replace(/[`\s]/g, '')}\n${text}\n${fence}`;
}

interface OpenList {
  level: number;
  ordered: boolean;
  /** Where the item's content starts, which a nested list must reach. */
  contentIndent: number;
  count: number;
  /** A numbered list's delimiter: `.`, or `)` for a list that follows another numbered one directly. */
  delimiter: '.' | ')';
}

/**
 * Renders the document model as CommonMark with GFM tables, one element at a time, so that a document of any
 * length streams: `write` returns the Markdown of one element (with the blank line before it), `end` what
 * closes the document. Page and slide changes are HTML comments; running headers and footers are left out.
 */
export class MarkdownWriter {
  private lists: OpenList[] = [];
  private position: string | undefined;
  private started = false;

  constructor(private readonly options: MarkdownOptions = {}) {}

  write(element: TextSegment): string {
    const kind = element.kind ?? 'paragraph';
    if (kind === 'page-header' || kind === 'page-footer') return '';
    let out = '';
    const position =
      element.slide !== undefined
        ? `slide ${element.slide}`
        : element.sheet !== undefined
          ? `sheet ${element.sheet}`
          : element.page !== undefined
            ? `page ${element.page}`
            : undefined;
    if (position !== undefined && position !== this.position) {
      this.position = position;
      this.lists = [];
      out += this.block(`<!-- ${position} -->`, false);
    }
    if (kind === 'list-item') return out + this.listItem(element);
    this.lists = [];
    const body = this.render(element, kind);
    return body ? out + this.block(body, false) : out;
  }

  end(): string {
    return this.started ? '\n' : '';
  }

  private block(text: string, tight: boolean): string {
    const separator = !this.started ? '' : tight ? '\n' : '\n\n';
    this.started = true;
    return separator + text;
  }

  private render(element: TextSegment, kind: NonNullable<TextSegment['kind']>): string {
    const text = element.text.trim();
    switch (kind) {
      case 'title':
        return text ? `# ${escapeInline(oneLine(text))}` : '';
      case 'heading': {
        const level = Math.min(6, Math.max(1, element.level ?? 1));
        return text ? `${'#'.repeat(level)} ${escapeInline(oneLine(text))}` : '';
      }
      case 'table':
        return element.rows ? renderTable(element.rows) : escapeMarkdown(text);
      case 'code':
        return fenced(element.text.replace(/\n+$/, ''), element.language);
      case 'formula':
        return text ? `$$\n${text}\n$$` : '';
      case 'figure': {
        const url = element.image !== undefined ? this.options.imageUrl?.(element.image) : undefined;
        const alt = oneLine(text).replace(/[[\]\\]/g, (char) => `\\${char}`);
        return url ? `![${alt}](<${url.replace(/[<>\n]/g, encodeURIComponent)}>)` : text ? escapeMarkdown(text) : '';
      }
      case 'notes':
        return text ? escapeMarkdown(text).replace(/^/gm, '> ') : '';
      case 'paragraph':
      case 'caption':
      case 'footnote':
      case 'list-item':
      case 'page-header':
      case 'page-footer':
        return text ? escapeMarkdown(text.replace(/\n\s*\n/g, '\n')) : '';
    }
  }

  private listItem(element: TextSegment): string {
    const level = Math.max(1, element.level ?? 1);
    const ordered = element.ordered ?? false;
    while (this.lists.length > 0 && this.lists.at(-1)!.level > level) this.lists.pop();
    let list = this.lists.at(-1);
    const number = ownNumber(element);
    // An item numbered back at or below the item before ("1." after "4.") starts a list of its own, which
    // CommonMark reads as one only with the other delimiter ("1)") and after a blank line.
    const restarted = list?.level === level && list.ordered && ordered && number !== undefined && number <= list.count;
    let delimiter: OpenList['delimiter'] = '.';
    if (list && list.level === level && (list.ordered !== ordered || restarted)) {
      if (restarted) delimiter = list.delimiter === '.' ? ')' : '.';
      this.lists.pop();
      list = undefined;
    }
    const fresh = !list || list.level < level;
    if (fresh) {
      list = { level, ordered, contentIndent: 0, count: 0, delimiter };
      this.lists.push(list);
    }
    const current = list!;
    // An item's own number wins: a list starts where the source's does ("3. Third" after a paragraph) and goes on
    // from there.
    current.count = number ?? current.count + 1;
    const indent = this.lists.length > 1 ? this.lists.at(-2)!.contentIndent : 0;
    const marker = ordered ? `${current.count}${current.delimiter}` : '-';
    current.contentIndent = indent + marker.length + 1;
    const pad = ' '.repeat(current.contentIndent);
    // A check list's item (its text starts with a check box) is a GFM task item: `- [x] Done`.
    const task = ordered ? null : CHECK_BOX.exec(element.text.trim());
    const own = task ? element.text.trim().slice(task[0].length) : element.text.trim();
    const lines = escapeMarkdown(own.replace(/\n\s*\n/g, '\n')).split('\n');
    if (task) lines[0] = `${taskMarker(task[1]!)} ${lines[0] ?? ''}`;
    const body = [`${' '.repeat(indent)}${marker} ${lines[0] ?? ''}`, ...lines.slice(1).map((line) => pad + line)];
    // A new list right after another block needs a blank line; items of the same list (or nested) stay tight, but
    // for a nested numbered list starting at another number than 1, which CommonMark reads as the text above it
    // going on unless a blank line stands between them.
    const startsElsewhere = fresh && ordered && current.count !== 1;
    return this.block(body.join('\n'), !fresh || (this.lists.length > 1 && !startsElsewhere && !restarted));
  }
}

/** The whole document as Markdown. */
export function toMarkdown(elements: TextSegment[], options: MarkdownOptions = {}): string {
  const writer = new MarkdownWriter(options);
  return elements.map((element) => writer.write(element)).join('') + writer.end();
}

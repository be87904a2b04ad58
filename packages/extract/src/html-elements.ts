import { isListNumber, type TableCell } from './document.ts';
import type { DomElement, DomNode } from './html-dom.ts';
import type { TextSegment } from './types.ts';
import { normalizeText } from './words.ts';

/** Elements whose text a reader never sees, or that hold only a site's navigation (as `readableText` skips them). */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'nav',
  'head',
  'title',
  'iframe',
  'object',
  'img',
  // Ruby annotations: the readings set above characters, not the sentence's text.
  'rt',
  'rp',
]);

/** Elements that end a paragraph; what is not one of these (or handled on its own) runs on in the line. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'legend',
  'li',
  'main',
  'p',
  'section',
  'summary',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
]);

const HEADING = /^h([1-6])$/;
/** Where a heading's level was written down before Readability made every `h1` an `h2` (see `keepHeadingLevels`). */
const LEVEL_ATTRIBUTE = 'data-quire-level';

/** Notes each `h1`'s level on it, so that the article Readability makes of the page keeps its headings' levels. */
export function keepHeadingLevels(root: { querySelectorAll(selectors: string): Iterable<DomElement> }): void {
  for (const heading of root.querySelectorAll('h1')) heading.setAttribute(LEVEL_ATTRIBUTE, '1');
}
/** What makes a figure more than an image and its caption: its content is read as blocks of its own. */
const FIGURE_CONTENT = 'table, pre, p, ul, ol, blockquote, h1, h2, h3, h4, h5, h6';

export interface HtmlElementsOptions {
  /** Keeps each image as a `figure` whose `image` is its `src` as written (the caller maps it to a stored file). */
  images?: boolean;
}

/** An integer as HTML's rules for parsing integers read an attribute: spaces, a sign, digits, and anything after. */
const integerOf = (value: string | null) => {
  const digits = value === null ? null : /^[\t\n\f\r ]*([-+]?\d+)/.exec(value);
  return digits ? Number.parseInt(digits[1]!, 10) : undefined;
};

/** A list type that is not decimal numbers: letters or roman numerals (`type="a"`, `"I"`). */
const NOT_DECIMAL = /^[aAiI]$/;

/**
 * The ordinal values of an `ol`'s items, as HTML counts them: from `start` (else 1), an item's `value` setting its
 * own and the count going on from it. Only a list that states a number (a `start`, an item's `value`) gives its items
 * numbers: the others count from 1, as the writers do anyway. A `reversed` list, or one numbered in letters or
 * roman numerals, gives none.
 */
class ListCounter {
  private ordinal: number;

  private constructor(start: number) {
    this.ordinal = start;
  }

  /** The counter of `list`, or null for a list whose items carry no number of their own. */
  static of(list: DomElement): ListCounter | null {
    if (tagOf(list) !== 'ol' || list.getAttribute('reversed') !== null) return null;
    if (NOT_DECIMAL.test(list.getAttribute('type') ?? '')) return null;
    const start = integerOf(list.getAttribute('start'));
    const valued = Array.from(list.querySelectorAll('li[value]')).some(
      (li) => li.closest('ol, ul, menu') === list && integerOf(li.getAttribute('value')) !== undefined,
    );
    return start !== undefined || valued ? new ListCounter(start ?? 1) : null;
  }

  /** The item's number, where it is one Markdown can write; counting on past it either way. */
  next(li: DomElement): number | undefined {
    const ordinal = integerOf(li.getAttribute('value')) ?? this.ordinal;
    this.ordinal = ordinal + 1;
    if (NOT_DECIMAL.test(li.getAttribute('type') ?? '')) return undefined;
    return isListNumber(ordinal) ? ordinal : undefined;
  }
}

const isElement = (node: DomNode): node is DomNode & DomElement => node.nodeType === 1;
const asNode = (element: DomElement) => element as unknown as DomNode;
const tagOf = (element: DomElement) => element.tagName.toLowerCase();
/** Source white space is one space, as a browser lays it out; soft hyphens go, as in `readableText`. */
const inlineSpace = (text: string) => text.replace(/[ \t\n\r\f]+/g, ' ').replace(/\u00ad/g, '');
const oneLine = (text: string) => normalizeText(text.replace(/\n/g, ' '));

/**
 * The document model of a piece of HTML (an article, an EPUB chapter): headings with their levels, list items with
 * their depth and numbering, tables with their cells and spans, figures with their captions, code blocks, and
 * paragraphs for the rest (a block quote's paragraphs too). It skips what `readableText` skips, so the words are the
 * same; only the blocks are told apart.
 */
export function htmlElements(root: DomElement, options: HtmlElementsOptions = {}): TextSegment[] {
  const reader = new ElementReader(options);
  reader.block(root);
  reader.flush();
  return reader.elements;
}

class ElementReader {
  readonly elements: TextSegment[] = [];
  private line = '';

  constructor(private readonly options: HtmlElementsOptions) {}

  /** The paragraph gathered so far, if it has any text. */
  flush(): void {
    const text = normalizeText(this.line);
    this.line = '';
    if (text) this.elements.push({ text });
  }

  /** An element's content read as blocks and running text. */
  block(element: DomElement): void {
    for (const node of Array.from(element.childNodes)) this.node(node);
  }

  private node(node: DomNode): void {
    if (!isElement(node)) {
      if (node.nodeType === 3) this.line += inlineSpace(node.textContent ?? '');
      return;
    }
    const tag = tagOf(node);
    if (tag === 'img') return this.image(node);
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') {
      this.line += '\n';
      return;
    }
    const heading = HEADING.exec(tag);
    if (heading) {
      this.flush();
      const text = oneLine(inlineText(node));
      const level = Number(node.getAttribute(LEVEL_ATTRIBUTE) ?? heading[1]);
      if (text) this.elements.push({ kind: 'heading', level, text });
      return;
    }
    if (tag === 'ul' || tag === 'ol') {
      this.flush();
      return this.list(node, 1);
    }
    if (tag === 'dl') {
      this.flush();
      return this.descriptionList(node, 1);
    }
    if (tag === 'table') {
      this.flush();
      return this.table(node);
    }
    if (tag === 'pre') {
      this.flush();
      return this.code(node);
    }
    if (tag === 'figure') {
      this.flush();
      return this.figure(node);
    }
    if (tag === 'hr' || BLOCK.has(tag)) {
      this.flush();
      this.block(node);
      this.flush();
      return;
    }
    this.block(node);
  }

  private image(img: DomElement): void {
    const src = img.getAttribute('src');
    if (!this.options.images || !src) return;
    this.flush();
    this.elements.push({ kind: 'figure', text: '', image: src });
  }

  /** A list's items; `counter` counts an `ol`'s items through the wrappers between it and them. */
  private list(list: DomElement, level: number, counter = ListCounter.of(list)): void {
    const ordered = tagOf(list) === 'ol';
    for (const node of Array.from(list.childNodes)) {
      if (!isElement(node)) {
        const text = normalizeText(inlineSpace(node.textContent ?? ''));
        if (text) this.elements.push({ kind: 'list-item', level, ordered, text });
        continue;
      }
      const tag = tagOf(node);
      if (SKIPPED.has(tag)) continue;
      if (tag === 'li') {
        // An item inside a wrapper counts in the list, but is read as unordered (as it always was): no number.
        const number = counter?.next(node);
        this.item(node, level, ordered, ordered ? number : undefined);
      } else if (tag === 'ul' || tag === 'ol') this.list(node, level + 1);
      // A wrapper between a list and its items (a `div` some sites put there) holds items of the same list.
      else this.list(node, level, counter);
    }
  }

  /** A description list as a list: each term an item, its descriptions the items one level below it. */
  private descriptionList(list: DomElement, level: number): void {
    for (const child of Array.from(list.children)) {
      const tag = tagOf(child);
      if (tag === 'dt') this.item(child, level, false);
      else if (tag === 'dd') this.item(child, level + 1, false);
      // HTML lets a `div` group a term with its descriptions.
      else if (tag === 'div') this.descriptionList(child, level);
    }
  }

  /** A list item's own text, then what it holds that is not running text: nested lists, one level deeper, and tables. */
  private item(li: DomElement, level: number, ordered: boolean, number?: number): void {
    const nested: DomElement[] = [];
    const text = normalizeText(
      inlineText(li, (element) => {
        const tag = tagOf(element);
        if (tag !== 'ul' && tag !== 'ol' && tag !== 'dl' && tag !== 'table' && tag !== 'pre' && !HEADING.test(tag))
          return false;
        nested.push(element);
        return true;
      }),
    );
    if (text)
      this.elements.push({ kind: 'list-item', level, ordered, ...(number !== undefined ? { number } : {}), text });
    for (const element of nested) {
      const tag = tagOf(element);
      if (tag === 'ul' || tag === 'ol') this.list(element, level + 1);
      else if (tag === 'dl') this.descriptionList(element, level + 1);
      else this.node(asNode(element));
    }
  }

  private table(table: DomElement): void {
    const rows = tableRows(table);
    const caption = Array.from(table.children).find((child) => tagOf(child) === 'caption');
    // A table of one cell frames its content, which is read as blocks; any other is a table, a table or a heading
    // in a cell being part of the cell's text.
    if (rows.flat().length <= 1) {
      this.block(table);
      this.flush();
      return;
    }
    const captionText = caption ? oneLine(inlineText(caption)) : '';
    if (captionText) this.elements.push({ kind: 'caption', text: captionText });
    const kept = rows.filter((row) => row.length > 0);
    if (!kept.some((row) => row.some((cell) => cell.text))) return;
    const text = kept.map((row) => row.map((cell) => cell.text).join('\t')).join('\n');
    this.elements.push({ kind: 'table', text, rows: kept });
  }

  private code(pre: DomElement): void {
    const text = (pre.textContent ?? '').replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\s+$/, '');
    if (!text.trim()) return;
    const code = pre.querySelector('code');
    const language = languageOf(pre) ?? (code ? languageOf(code) : undefined);
    this.elements.push({ kind: 'code', text, ...(language ? { language } : {}) });
  }

  private figure(figure: DomElement): void {
    const caption = figure.querySelector('figcaption');
    const content = [...figure.querySelectorAll(FIGURE_CONTENT)].filter((el) => !caption?.contains(el));
    if (content.length > 0) {
      this.block(figure);
      this.flush();
      return;
    }
    const text = caption ? normalizeText(inlineText(caption)) : '';
    const src = figure.querySelector('img')?.getAttribute('src') ?? undefined;
    const image = this.options.images && src ? { image: src } : {};
    if (text || image.image) this.elements.push({ kind: 'figure', text, ...image });
  }
}

/**
 * The running text of an element: its text with the skipped elements left out, a line break for each `<br>` and
 * between blocks. `aside` is given each descendant element first and may take it (true): its text is then left out.
 */
function inlineText(element: DomElement, aside?: (element: DomElement) => boolean): string {
  let text = '';
  const visit = (node: DomNode) => {
    if (!isElement(node)) {
      if (node.nodeType === 3) text += inlineSpace(node.textContent ?? '');
      return;
    }
    const tag = tagOf(node);
    if (SKIPPED.has(tag) || aside?.(node)) return;
    if (tag === 'br') {
      text += '\n';
      return;
    }
    const block = BLOCK.has(tag) || HEADING.test(tag) || tag === 'pre' || tag === 'hr';
    if (block) text += '\n';
    for (const child of Array.from(node.childNodes)) visit(child);
    if (block) text += '\n';
  };
  for (const child of Array.from(element.childNodes)) visit(child);
  return text;
}

/**
 * A table's rows of cells, in the table's own rows, with header cells (`th`, or any cell of a `thead`) and spans. A
 * table inside a cell is part of that cell's text, as a reader of the outer table sees it.
 */
function tableRows(table: DomElement): TableCell[][] {
  const rows: TableCell[][] = [];
  const readRow = (tr: DomElement, inHead: boolean) => {
    const row: TableCell[] = [];
    for (const cell of Array.from(tr.children)) {
      const tag = tagOf(cell);
      if (tag !== 'td' && tag !== 'th') continue;
      const rowSpan = span(cell.getAttribute('rowspan'));
      const colSpan = span(cell.getAttribute('colspan'));
      row.push({
        text: oneLine(inlineText(cell)),
        ...(tag === 'th' || inHead ? { header: true } : {}),
        ...(rowSpan > 1 ? { rowSpan } : {}),
        ...(colSpan > 1 ? { colSpan } : {}),
      });
    }
    rows.push(row);
  };
  for (const child of Array.from(table.children)) {
    const tag = tagOf(child);
    if (tag === 'tr') readRow(child, false);
    else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot')
      for (const tr of Array.from(child.children)) if (tagOf(tr) === 'tr') readRow(tr, tag === 'thead');
  }
  return rows;
}

function span(value: string | null): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
}

function languageOf(element: DomElement): string | undefined {
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(element.getAttribute('class') ?? '')?.[1];
}

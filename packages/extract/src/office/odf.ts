import type { Document, Element } from 'domhandler';
import type { TableCell } from '../document.ts';
import { ExtractError, type ExtractOptions, type ExtractResult, type TextSegment } from '../types.ts';
import { resultOf, tableElement, tidy } from './elements.ts';
import type { OfficeFormat } from './formats.ts';
import { FigureImages } from './images.ts';
import type { OfficePackage } from './package.ts';
import { TextBudget } from './text-budget.ts';
import { MAX_CELLS_PER_SHEET, workbookResult, type SheetCut, type SheetGrid } from './xlsx.ts';
import { attribute, childElements, descendants, firstChild, localName, pathOf, rootOf, textContent } from './xml.ts';

/** Repeated rows or columns that hold something are written out at most this many times (an empty repeat costs nothing). */
const MAX_REPEAT = 1000;
/**
 * The most characters a document's text tables copy from repeated cells (a 3 KB ODT that repeats one long cell
 * a thousand times a row names gigabytes); past it a repeated cell is written once, and the metadata says so.
 */
export const MAX_REPEATED_CHARS = 1_000_000;

interface ListLevel {
  numbered: boolean;
  /** Numbered in plain decimals (`style:num-format="1"`), the items' own numbers worth carrying. */
  decimal: boolean;
  start: number;
}

interface OdfStyles {
  /** Paragraph style -> its parent, through automatic and common styles. */
  parents: Map<string, string>;
  /** List style -> level (1-based) -> how it numbers its items. */
  lists: Map<string, Map<number, ListLevel>>;
  /** Drawing-page styles that hide their slide. */
  hiddenPages: Set<string>;
}

/** An OpenDocument text, presentation or spreadsheet (ODT, ODP, ODS) as the document model, from its content.xml. */
export async function readOdf(
  pkg: OfficePackage,
  format: OfficeFormat,
  options: ExtractOptions,
): Promise<ExtractResult> {
  const content = await pkg.xml('content.xml');
  const body = content && pathOf(rootOf(content), 'body');
  if (!body) throw new ExtractError('CORRUPT', 'The OpenDocument file has no content.xml body');
  const styles = stylesOf([content, await pkg.xml('styles.xml').catch(() => undefined)]);
  const figures = new FigureImages(options.extractImages);
  const reader = new OdfReader(styles, figures, await objectsOf(pkg, body));
  let result: ExtractResult;
  if (format === 'ods') {
    result = workbookResult(sheetsOf(firstChild(body, 'spreadsheet') ?? body), 'ods');
  } else if (format === 'odp') {
    const slides = childElements(firstChild(body, 'presentation') ?? body, 'page');
    const elements: TextSegment[] = [];
    const hiddenSlides: number[] = [];
    slides.forEach((page, index) => {
      const slide = index + 1;
      const hidden = styles.hiddenPages.has(attribute(page, 'style-name') ?? '');
      if (hidden) hiddenSlides.push(slide);
      elements.push(
        ...reader.slide(page, slide).map((element) => ({ ...element, slide, ...(hidden ? { hidden } : {}) })),
      );
    });
    result = resultOf(elements, {
      format: 'odp',
      slideCount: slides.length,
      ...(hiddenSlides.length > 0 ? { hiddenSlides } : {}),
      ...repeatsCut(reader),
    });
  } else {
    const text = firstChild(body, 'text') ?? body;
    const elements = [...reader.blocks(text), ...reader.notes];
    result = resultOf(elements, {
      format: 'odt',
      ...(await statisticsOf(pkg)),
      ...commentsOf(text),
      ...repeatsCut(reader),
    });
  }
  options.onText?.(result);
  result.images = await figures.save(pkg, options);
  result.segments = result.segments.filter((segment) => segment.text !== '' || segment.image);
  return result;
}

const repeatsCut = (reader: OdfReader) => (reader.repeats.spent ? { maxRepeatedChars: MAX_REPEATED_CHARS } : {});

/** Most embedded objects read ahead (charts, in the main): more are left out. */
const MAX_OBJECTS = 200;

/** The embedded objects' own content (`Object 1/content.xml`) by the href a `draw:object` names them with. */
async function objectsOf(pkg: OfficePackage, body: Element): Promise<Map<string, Document>> {
  const objects = new Map<string, Document>();
  for (const object of descendants(body, 'object').slice(0, MAX_OBJECTS)) {
    const href = attribute(object, 'href');
    const folder = href && !/^[a-z][a-z0-9+.-]*:/i.test(href) ? href.replace(/^\.\//, '').replace(/\/$/, '') : '';
    if (!folder || objects.has(folder)) continue;
    const content = await pkg.xml(`${folder}/content.xml`).catch(() => undefined);
    if (content) objects.set(folder, content);
  }
  return objects;
}

async function statisticsOf(pkg: OfficePackage): Promise<{ pageCount?: number }> {
  const meta = await pkg.xml('meta.xml').catch(() => undefined);
  const statistics = meta && descendants(meta, 'document-statistic')[0];
  const pages = Number(attribute(statistics, 'page-count'));
  return Number.isInteger(pages) && pages > 0 ? { pageCount: pages } : {};
}

function commentsOf(text: Element): { comments?: { author?: string; text: string }[] } {
  const comments = descendants(text, 'annotation')
    .map((annotation) => {
      const creator = descendants(annotation, 'creator')[0];
      const body = tidy(childElements(annotation, 'p').map(textContent).join('\n'));
      return { ...(creator ? { author: textContent(creator) } : {}), text: body };
    })
    .filter((comment) => comment.text);
  return comments.length > 0 ? { comments } : {};
}

function stylesOf(documents: (Document | undefined)[]): OdfStyles {
  const styles: OdfStyles = { parents: new Map(), lists: new Map(), hiddenPages: new Set() };
  for (const document of documents) {
    if (!document) continue;
    for (const style of descendants(document, 'style')) {
      const name = attribute(style, 'name');
      if (!name) continue;
      const parent = attribute(style, 'parent-style-name');
      if (parent) styles.parents.set(name, parent);
      const display = attribute(style, 'display-name');
      if (display && display !== name) styles.parents.set(name, styles.parents.get(name) ?? display);
      const page = firstChild(style, 'drawing-page-properties');
      if (attribute(page, 'visibility') === 'hidden' || attribute(page, 'display') === 'false')
        styles.hiddenPages.add(name);
    }
    for (const listStyle of descendants(document, 'list-style')) {
      const levels = new Map<number, ListLevel>();
      for (const level of childElements(listStyle)) {
        const numbered = localName(level) === 'list-level-style-number';
        levels.set(Number(attribute(level, 'level') ?? 1), {
          numbered,
          decimal: numbered && attribute(level, 'num-format') === '1',
          start: /^\d+$/.test(attribute(level, 'start-value') ?? '') ? Number(attribute(level, 'start-value')) : 1,
        });
      }
      styles.lists.set(attribute(listStyle, 'name') ?? '', levels);
    }
  }
  return styles;
}

class OdfReader {
  readonly notes: TextSegment[] = [];
  /** The text a table's repeated cells copy, all tables together (the file holds each once). */
  readonly repeats = new TextBudget(MAX_REPEATED_CHARS);
  /** Each list's counters by level, by the list's `xml:id` and by its style (the last list of that style). */
  private readonly countersById = new Map<string, number[]>();
  private readonly countersByStyle = new Map<string, number[]>();

  constructor(
    private readonly styles: OdfStyles,
    private readonly figures: FigureImages,
    private readonly objects: Map<string, Document> = new Map(),
  ) {}

  blocks(container: Element, slide?: number): TextSegment[] {
    const out: TextSegment[] = [];
    for (const child of childElements(container)) {
      switch (localName(child)) {
        case 'h': {
          const after: TextSegment[] = [];
          const text = tidy(this.inline(child, after, slide));
          const level = Math.min(6, Math.max(1, Number(attribute(child, 'outline-level') ?? 1) || 1));
          if (text) out.push({ kind: 'heading', level, text });
          out.push(...after);
          break;
        }
        case 'p': {
          const after: TextSegment[] = [];
          const text = tidy(this.inline(child, after, slide));
          if (text) out.push({ ...this.paragraphRole(attribute(child, 'style-name')), text });
          out.push(...after);
          break;
        }
        case 'list':
          this.list(child, 1, attribute(child, 'style-name'), out, slide);
          break;
        case 'table': {
          const table = this.table(child, slide);
          if (table) out.push(table);
          break;
        }
        case 'section':
        case 'text-box':
        case 'deletion':
          if (localName(child) !== 'deletion') out.push(...this.blocks(child, slide));
          break;
        case 'frame':
        case 'custom-shape':
        case 'rect':
        case 'ellipse':
        case 'g':
          out.push(...this.shape(child, slide));
          break;
        default:
      }
    }
    return out;
  }

  slide(page: Element, slide: number): TextSegment[] {
    const placed: { y: number; x: number; title: boolean; elements: TextSegment[] }[] = [];
    for (const shape of childElements(page)) {
      const name = localName(shape);
      if (name === 'notes') {
        const text = tidy(
          descendants(shape, 'frame')
            .filter((frame) => attribute(frame, 'class') === 'notes')
            .flatMap((frame) => this.shape(frame, slide))
            .map((element) => element.text)
            .join('\n'),
        );
        if (text) placed.push({ y: Infinity, x: Infinity, title: false, elements: [{ kind: 'notes', text }] });
        continue;
      }
      const title = attribute(shape, 'class') === 'title';
      let elements = this.shape(shape, slide);
      if (title) {
        const text = tidy(elements.map((element) => element.text).join(' '));
        elements = text ? [{ kind: 'heading', level: 1, text }] : [];
      }
      placed.push({ y: length(attribute(shape, 'y')), x: length(attribute(shape, 'x')), title, elements });
    }
    placed.sort((a, b) => Number(b.title) - Number(a.title) || a.y - b.y || a.x - b.x);
    return placed.flatMap((item) => item.elements);
  }

  private shape(shape: Element, slide?: number): TextSegment[] {
    const name = localName(shape);
    if (name === 'g') return childElements(shape).flatMap((child) => this.shape(child, slide));
    if (name === 'image') {
      const alt = [firstChild(shape.parent as Element, 'title'), firstChild(shape.parent as Element, 'desc')]
        .filter((element): element is Element => Boolean(element))
        .map(textContent)
        .join(' ');
      const href = attribute(shape, 'href');
      const part = href && !/^[a-z][a-z0-9+.-]*:/i.test(href) ? href.replace(/^\.\//, '') : undefined;
      return [this.figures.figure(part, alt, slide ? { slide } : {})];
    }
    if (name === 'frame') {
      const image = firstChild(shape, 'image');
      const box = firstChild(shape, 'text-box');
      const table = firstChild(shape, 'table');
      const object = firstChild(shape, 'object');
      if (box) return this.blocks(box, slide);
      if (table) return this.blocks(shape, slide);
      if (object) {
        const chart = this.chart(object, slide);
        if (chart.length > 0) return chart;
      }
      if (image) return this.shape(image, slide);
      return [];
    }
    return this.blocks(shape, slide);
  }

  /**
   * An embedded chart (`draw:object` whose content is an `office:chart`), as the Office readers write one: its
   * title as a caption, then its data (the chart's own local table: categories, series names, values) as a table.
   */
  private chart(object: Element, slide?: number): TextSegment[] {
    const href = (attribute(object, 'href') ?? '').replace(/^\.\//, '').replace(/\/$/, '');
    const document = this.objects.get(href) ?? object;
    // `chart:chart`, inside the object's `office:chart` body.
    const chart = descendants(document, 'chart').find(
      (element) => element.parent !== null && localName(element.parent as Element) === 'chart',
    );
    if (!chart) return [];
    const out: TextSegment[] = [];
    const title = firstChild(chart, 'title');
    const titleText = title ? tidy(descendants(title, 'p').map(textContent).join(' ')) : '';
    if (titleText) out.push({ kind: 'caption', text: titleText });
    const data = firstChild(chart, 'table');
    const table = data && this.table(data, slide);
    if (table) out.push(table);
    return out;
  }

  private paragraphRole(style: string | undefined): Pick<TextSegment, 'kind' | 'level'> {
    for (let name = style, depth = 0; name && depth < 20; name = this.styles.parents.get(name), depth++) {
      const normal = name.replace(/_20_/g, ' ').toLowerCase();
      if (normal === 'title') return { kind: 'title' };
      const heading = /^heading (\d)$/.exec(normal);
      if (heading) return { kind: 'heading', level: Number(heading[1]) };
      if (normal === 'caption' || normal === 'illustration' || normal === 'table' || normal === 'figure')
        return { kind: 'caption' };
    }
    return { kind: 'paragraph' };
  }

  /**
   * The counters a top-level list numbers its items with: those of the list it continues (`text:continue-list`
   * names it, `text:continue-numbering` is the last list of its style), else new ones.
   */
  private countersOf(list: Element, style: string | undefined): number[] {
    const listStyle = attribute(list, 'style-name') ?? style ?? '';
    const continued = attribute(list, 'continue-list');
    const counters =
      (continued !== undefined ? this.countersById.get(continued) : undefined) ??
      (attribute(list, 'continue-numbering') === 'true' ? this.countersByStyle.get(listStyle) : undefined) ??
      [];
    const id = attribute(list, 'id');
    if (id !== undefined) this.countersById.set(id, counters);
    this.countersByStyle.set(listStyle, counters);
    return counters;
  }

  private list(
    list: Element,
    level: number,
    style: string | undefined,
    out: TextSegment[],
    slide?: number,
    counters = this.countersOf(list, style),
  ): void {
    const listStyle = attribute(list, 'style-name') ?? style;
    const numbering = this.styles.lists.get(listStyle ?? '')?.get(level);
    const ordered = numbering?.numbered ?? false;
    for (const item of childElements(list)) {
      if (localName(item) !== 'list-item' && localName(item) !== 'list-header') continue;
      let number: number | undefined;
      // An item with a paragraph of its own counts (a header and an item holding only a nested list do not), from
      // its own start value, else one on from the item before, else the level's start; the levels below start again.
      if (
        numbering &&
        localName(item) === 'list-item' &&
        childElements(item).some((c) => /^[ph]$/.test(localName(c)))
      ) {
        const own = attribute(item, 'start-value');
        counters[level - 1] = own && /^\d+$/.test(own) ? Number(own) : (counters[level - 1] ?? numbering.start - 1) + 1;
        counters.length = level;
        if (numbering.decimal) number = counters[level - 1];
      }
      for (const child of childElements(item)) {
        const name = localName(child);
        if (name === 'list') this.list(child, level + 1, listStyle, out, slide, counters);
        else if (name === 'p' || name === 'h') {
          const after: TextSegment[] = [];
          const text = tidy(this.inline(child, after, slide));
          if (text)
            out.push({
              kind: 'list-item',
              level: Math.min(9, level),
              ordered,
              ...(number !== undefined ? { number } : {}),
              text,
            });
          // (An item's later paragraphs are its text going on, not numbered again.)
          number = undefined;
          out.push(...after);
        } else if (name === 'table') {
          const table = this.table(child, slide);
          if (table) out.push(table);
        }
      }
    }
  }

  private inline(node: Element, after: TextSegment[], slide?: number): string {
    let text = '';
    for (const child of node.children) {
      if (child.type === 'text') {
        text += (child as unknown as { data: string }).data;
        continue;
      }
      if (child.type !== 'tag') continue;
      const element = child;
      switch (localName(element)) {
        case 's':
          text += ' '.repeat(Math.min(100, Number(attribute(element, 'c') ?? 1) || 1));
          break;
        case 'tab':
          text += '\t';
          break;
        case 'line-break':
          text += '\n';
          break;
        case 'note': {
          const body = firstChild(element, 'note-body');
          const note = body
            ? tidy(
                this.blocks(body, slide)
                  .map((e) => e.text)
                  .join('\n'),
              )
            : '';
          if (note) this.notes.push({ kind: 'footnote', text: note });
          break;
        }
        case 'annotation':
        case 'annotation-end':
        case 'tracked-changes':
        case 'bookmark-ref':
          break;
        case 'frame':
        case 'custom-shape':
        case 'g':
          after.push(...this.shape(element, slide));
          break;
        default:
          text += this.inline(element, after, slide);
      }
    }
    return text;
  }

  private table(table: Element, slide?: number): TextSegment | undefined {
    const rows: TableCell[][] = [];
    const walk = (container: Element, header: boolean) => {
      for (const child of childElements(container)) {
        const name = localName(child);
        if (name === 'table-header-rows') walk(child, true);
        else if (name === 'table-rows' || name === 'table-row-group') walk(child, header);
        else if (name === 'table-row') {
          const row: TableCell[] = [];
          for (const cell of childElements(child, 'table-cell')) {
            const text = tidy(
              this.blocks(cell, slide)
                .map((element) => element.text)
                .join('\n'),
            );
            const colSpan = Number(attribute(cell, 'number-columns-spanned') ?? 1) || 1;
            const rowSpan = Number(attribute(cell, 'number-rows-spanned') ?? 1) || 1;
            const repeat = Math.min(MAX_REPEAT, Number(attribute(cell, 'number-columns-repeated') ?? 1) || 1);
            for (let i = 0; i < (text ? repeat : Math.min(repeat, 1)); i++) {
              if (i > 0 && !this.repeats.take(text)) break;
              row.push({
                text,
                ...(header ? { header } : {}),
                ...(colSpan > 1 ? { colSpan } : {}),
                ...(rowSpan > 1 ? { rowSpan } : {}),
              });
            }
          }
          rows.push(row);
        }
      }
    };
    walk(table, false);
    return tableElement(rows);
  }
}

/** An ODF length (`2.5cm`, `1in`, `72pt`) in centimetres, for ordering shapes; Infinity when absent. */
function length(value: string | undefined): number {
  const match = value && /^(-?[\d.]+)(cm|mm|in|pt|pc|px)?$/.exec(value.trim());
  if (!match) return Infinity;
  const factor = { cm: 1, mm: 0.1, in: 2.54, pt: 2.54 / 72, pc: 2.54 / 6, px: 2.54 / 96 }[match[2] ?? 'cm'] ?? 1;
  return Number(match[1]) * factor;
}

/** A spreadsheet's sheets, cells read as they are shown (their `text:p`), repeats expanded only where they hold text. */
function sheetsOf(spreadsheet: Element): SheetGrid[] {
  const budget = new TextBudget();
  return childElements(spreadsheet, 'table').map((table, index) => {
    const cells = new Map<number, Map<number, string>>();
    let count = 0;
    let cut: SheetCut | undefined = budget.spent ? 'maxWorkbookChars' : undefined;
    let row = 0;
    const rowsOf = (container: Element): Element[] =>
      childElements(container).flatMap((child) => {
        const name = localName(child);
        if (name === 'table-row') return [child];
        if (name === 'table-rows' || name === 'table-header-rows' || name === 'table-row-group') return rowsOf(child);
        return [];
      });
    for (const tableRow of cut ? [] : rowsOf(table)) {
      const rowRepeat = Number(attribute(tableRow, 'number-rows-repeated') ?? 1) || 1;
      const line = new Map<number, string>();
      let column = 0;
      for (const cell of childElements(tableRow)) {
        if (localName(cell) !== 'table-cell' && localName(cell) !== 'covered-table-cell') continue;
        const repeat = Number(attribute(cell, 'number-columns-repeated') ?? 1) || 1;
        const text = tidy(childElements(cell, 'p').map(textContent).join('\n')) || (attribute(cell, 'value') ?? '');
        if (text) for (let i = 0; i < Math.min(repeat, MAX_REPEAT); i++) line.set(column + i, text);
        column += repeat;
      }
      const times = line.size > 0 ? Math.min(rowRepeat, MAX_REPEAT) : 0;
      for (let i = 0; i < times && !cut; i++) {
        if (count + line.size > MAX_CELLS_PER_SHEET) cut = 'maxCellsPerSheet';
        else if (![...line.values()].every((text) => budget.take(text))) cut = 'maxWorkbookChars';
        else {
          cells.set(row + i, new Map(line));
          count += line.size;
        }
      }
      row += rowRepeat;
    }
    return {
      name: attribute(table, 'name') ?? `Sheet ${index + 1}`,
      hidden: false,
      cells,
      ...(cut ? { cut } : {}),
    };
  });
}

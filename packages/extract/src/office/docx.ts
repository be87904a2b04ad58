import type { Document, Element } from 'domhandler';
import { plainTextOf, type TableCell } from '../document.ts';
import { ExtractError, type ExtractOptions, type ExtractResult, type TextSegment } from '../types.ts';
import { chartSegments } from './charts.ts';
import { resultOf, tableElement, tidy } from './elements.ts';
import { FigureImages } from './images.ts';
import { ommlToLatex } from './omml.ts';
import type { OfficePackage, Relationship } from './package.ts';
import {
  attribute,
  childElements,
  descendants,
  firstChild,
  localName,
  pathOf,
  relationshipId,
  rootOf,
  textContent,
} from './xml.ts';

interface Style {
  name: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
}

interface ParagraphRole {
  kind: TextSegment['kind'];
  level?: number;
  ordered?: boolean;
  /** A numbered list item's own number, where its label is the plain decimal counter ("3."). */
  number?: number;
  /** A numbered heading's number, written before its text. */
  label?: string;
}

const MAX_STYLE_CHAIN = 20;

/** A Word document (DOCX, DOCM, DOTX) as the document model, read from its WordprocessingML parts. */
export async function readDocx(pkg: OfficePackage, options: ExtractOptions): Promise<ExtractResult> {
  const main = await pkg.mainPart('word/document.xml');
  const document = await pkg.xml(main);
  const body = document && pathOf(rootOf(document), 'body');
  if (!body) throw new ExtractError('CORRUPT', 'The Word document has no body (word/document.xml)');
  const rels = await pkg.relationships(main);
  const partOf = async (type: string) => {
    const rel = [...rels.values()].find((candidate) => candidate.type === type && candidate.part);
    return rel?.part ? pkg.xml(rel.part) : undefined;
  };
  const [styles, numbering, footnotes, endnotes, comments] = await Promise.all(
    ['styles', 'numbering', 'footnotes', 'endnotes', 'comments'].map(partOf),
  );
  const figures = new FigureImages(options.extractImages);
  const reader = new WordReader(stylesOf(styles), numberingOf(numbering), rels, figures, await chartsOf(pkg, rels));

  const headers: TextSegment[] = [];
  const footers: TextSegment[] = [];
  for (const rel of rels.values()) {
    if ((rel.type !== 'header' && rel.type !== 'footer') || !rel.part) continue;
    const part = await pkg.xml(rel.part);
    const root = part && rootOf(part);
    if (!root) continue;
    const partRels = await pkg.relationships(rel.part);
    const partReader = new WordReader(
      reader.styles,
      reader.numbering,
      partRels,
      figures,
      await chartsOf(pkg, partRels),
    );
    const text = partReader
      .blocks(root)
      .map((element) => element.text)
      .filter(Boolean)
      .join('\n');
    const into = rel.type === 'header' ? headers : footers;
    if (tidy(text) && !into.some((element) => element.text === tidy(text)))
      into.push({ kind: rel.type === 'header' ? 'page-header' : 'page-footer', text: tidy(text) });
  }

  const elements = reader.blocks(body);
  const notes = [...notesOf(footnotes, reader.footnoteIds, reader), ...notesOf(endnotes, reader.endnoteIds, reader)];
  const result = resultOf([...headers, ...elements, ...notes, ...footers], {
    format: 'docx',
    ...(await pageCountOf(pkg)),
    ...commentsOf(comments),
  });
  options.onText?.(result);
  result.images = await figures.save(pkg, options);
  result.segments = result.segments.filter((segment) => segment.text !== '' || segment.image);
  return result;
}

/** The chart parts a part's relationships name, read ahead by relationship id (the reader itself is synchronous). */
async function chartsOf(pkg: OfficePackage, rels: Map<string, Relationship>): Promise<Map<string, Document>> {
  const charts = new Map<string, Document>();
  for (const [id, rel] of rels) {
    if (rel.type !== 'chart' || !rel.part) continue;
    const document = await pkg.xml(rel.part).catch(() => undefined);
    if (document) charts.set(id, document);
  }
  return charts;
}

async function pageCountOf(pkg: OfficePackage): Promise<{ pageCount?: number }> {
  const app = await pkg.xml('docProps/app.xml').catch(() => undefined);
  const pages = app && pathOf(rootOf(app), 'Pages');
  const count = pages ? Number(textContent(pages)) : NaN;
  return Number.isInteger(count) && count > 0 ? { pageCount: count } : {};
}

function commentsOf(document: Document | undefined): { comments?: { author?: string; text: string }[] } {
  const root = document && rootOf(document);
  if (!root) return {};
  const comments = childElements(root, 'comment')
    .map((comment) => {
      const author = attribute(comment, 'author');
      const text = tidy(descendants(comment, 'p').map(paragraphPlainText).join('\n'));
      return { ...(author ? { author } : {}), text };
    })
    .filter((comment) => comment.text);
  return comments.length > 0 ? { comments } : {};
}

const paragraphPlainText = (p: Element) =>
  descendants(p, 't')
    .filter((t) => localName(t.parent as Element) === 'r')
    .map(textContent)
    .join('');

function notesOf(document: Document | undefined, ids: string[], reader: WordReader): TextSegment[] {
  const root = document && rootOf(document);
  if (!root || ids.length === 0) return [];
  const byId = new Map(childElements(root).map((note) => [attribute(note, 'id'), note]));
  const out: TextSegment[] = [];
  for (const id of ids) {
    const note = byId.get(id);
    if (!note) continue;
    const text = tidy(
      reader
        .blocks(note)
        .map((element) => element.text)
        .join('\n'),
    );
    if (text) out.push({ kind: 'footnote', text });
  }
  return out;
}

function stylesOf(document: Document | undefined): Map<string, Style> {
  const styles = new Map<string, Style>();
  const root = document && rootOf(document);
  if (!root) return styles;
  for (const style of childElements(root, 'style')) {
    const id = attribute(style, 'styleId');
    if (!id) continue;
    const pPr = firstChild(style, 'pPr');
    const outline = attribute(pPr && firstChild(pPr, 'outlineLvl'), 'val');
    const numPr = pPr && firstChild(pPr, 'numPr');
    const numId = attribute(numPr && firstChild(numPr, 'numId'), 'val');
    const ilvl = attribute(numPr && firstChild(numPr, 'ilvl'), 'val');
    const basedOn = attribute(firstChild(style, 'basedOn'), 'val');
    styles.set(id, {
      name: (attribute(firstChild(style, 'name'), 'val') ?? id).toLowerCase(),
      ...(basedOn ? { basedOn } : {}),
      ...(outline !== undefined ? { outlineLevel: Number(outline) } : {}),
      ...(numId ? { numId } : {}),
      ...(ilvl ? { ilvl: Number(ilvl) } : {}),
    });
  }
  return styles;
}

interface NumberingLevel {
  /** Anything but bullets. */
  ordered: boolean;
  format: string;
  /** The label's pattern: `%1.%2.` for "1.3.". */
  text: string;
  start: number;
}

/** A list definition of numbering.xml, by the numId paragraphs name; `list` keys the counters it shares. */
interface NumberingDefinition {
  list: string;
  levels: Map<number, NumberingLevel>;
  /** The levels this numbering starts again (`w:lvlOverride/w:startOverride`, Word's "Restart at 1"), at that value. */
  restarts: Map<number, number>;
}

function numberingOf(document: Document | undefined): Map<string, NumberingDefinition> {
  const out = new Map<string, NumberingDefinition>();
  const root = document && rootOf(document);
  if (!root) return out;
  const abstract = new Map<string, Map<number, NumberingLevel>>();
  for (const definition of childElements(root, 'abstractNum')) {
    const levels = new Map<number, NumberingLevel>();
    for (const level of childElements(definition, 'lvl')) {
      const format = attribute(firstChild(level, 'numFmt'), 'val') ?? 'decimal';
      levels.set(Number(attribute(level, 'ilvl') ?? 0), {
        ordered: format !== 'bullet' && format !== 'none',
        format,
        text: attribute(firstChild(level, 'lvlText'), 'val') ?? '',
        start: Number(attribute(firstChild(level, 'start'), 'val') ?? 1) || 0,
      });
    }
    abstract.set(attribute(definition, 'abstractNumId') ?? '', levels);
  }
  for (const num of childElements(root, 'num')) {
    const list = attribute(firstChild(num, 'abstractNumId'), 'val') ?? '';
    const levels = abstract.get(list);
    const restarts = new Map<number, number>();
    for (const override of childElements(num, 'lvlOverride')) {
      const start = Number(attribute(firstChild(override, 'startOverride'), 'val'));
      if (Number.isInteger(start)) restarts.set(Number(attribute(override, 'ilvl') ?? 0), start);
    }
    if (levels) out.set(attribute(num, 'numId') ?? '', { list, levels, restarts });
  }
  return out;
}

const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** A counter as a numbering format writes it (decimal, letters, roman numerals). */
function formatCounter(value: number, format: string): string {
  const letters = (n: number) => (n <= 0 ? '' : String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.ceil(n / 26)));
  const roman = (n: number) => {
    let out = '';
    for (const [size, digits] of ROMAN) for (; n >= size; n -= size) out += digits;
    return out;
  };
  switch (format) {
    case 'lowerLetter':
      return letters(value);
    case 'upperLetter':
      return letters(value).toUpperCase();
    case 'lowerRoman':
      return roman(value);
    case 'upperRoman':
      return roman(value).toUpperCase();
    case 'decimalZero':
      return String(value).padStart(2, '0');
    default:
      return String(value);
  }
}

const CHECKED = '☒';
const UNCHECKED = '☐';
const CHECK_BOX_START = /^[☐☑☒]/;

/** A check box's state element (`w14:checked`, `w:checked`, `w:default`): on unless its value says off. */
function isChecked(state: Element | undefined): boolean {
  if (!state) return false;
  const value = attribute(state, 'val');
  return value === undefined || value === '1' || value === 'true' || value === 'on';
}

/** What a paragraph's runs give: its text, its equations (LaTeX), and whether anything but equations was seen. */
interface InlineState {
  text: string;
  formulas: string[];
  other: boolean;
}

class WordReader {
  readonly footnoteIds: string[] = [];
  /** Each list's counters by level, as Word advances them paragraph by paragraph. */
  private readonly counters = new Map<string, number[]>();
  /** The numberings' levels that have started again (`restarts`), as `numId:ilvl`: only their first item does. */
  private readonly restarted = new Set<string>();
  readonly endnoteIds: string[] = [];

  constructor(
    readonly styles: Map<string, Style>,
    readonly numbering: Map<string, NumberingDefinition>,
    private readonly rels: Map<string, Relationship>,
    private readonly figures: FigureImages,
    private readonly charts: Map<string, Document> = new Map(),
  ) {}

  /** The block-level content of a body, a cell, a text box or a note. */
  blocks(container: Element): TextSegment[] {
    const out: TextSegment[] = [];
    for (const child of childElements(container)) {
      switch (localName(child)) {
        case 'p':
          this.paragraph(child, out);
          break;
        case 'tbl': {
          const frame = onlyCellOf(child);
          if (frame) {
            // A table of one cell is a frame drawn around its content (lists, paragraphs, another table), not data.
            out.push(...this.blocks(frame));
            break;
          }
          const table = this.table(child);
          if (table) out.push(table);
          break;
        }
        case 'sdt':
        case 'customXml':
        case 'ins':
        case 'moveTo':
        case 'sdtContent':
        case 'txbxContent':
          out.push(...this.blocks(localName(child) === 'sdt' ? (firstChild(child, 'sdtContent') ?? child) : child));
          break;
        case 'AlternateContent':
          out.push(...this.blocks(firstChild(child, 'Choice') ?? child));
          break;
        default:
      }
    }
    return out;
  }

  private paragraph(p: Element, out: TextSegment[]): void {
    const after: TextSegment[] = [];
    const inline: InlineState = { text: '', formulas: [], other: false };
    this.inline(p, inline, after);
    const role = this.roleOf(p);
    if (inline.formulas.length > 0 && !inline.other) {
      // A paragraph of equations only: each a display formula, in LaTeX without the inline `$` delimiters.
      for (const formula of inline.formulas) out.push({ kind: 'formula', text: formula });
      out.push(...after);
      return;
    }
    const text = tidy(role.label && inline.text.trim() ? `${role.label} ${inline.text}` : inline.text);
    // A paragraph that starts with a check box is an item of a check list (Markdown writes it as a task item).
    if (CHECK_BOX_START.test(text) && (role.kind === 'paragraph' || role.kind === 'list-item')) {
      out.push({ text, kind: 'list-item', level: role.kind === 'list-item' ? (role.level ?? 1) : 1, ordered: false });
      out.push(...after);
      return;
    }
    if (text)
      out.push({
        text,
        kind: role.kind,
        ...(role.level !== undefined ? { level: role.level } : {}),
        ...(role.ordered !== undefined ? { ordered: role.ordered } : {}),
        ...(role.number !== undefined ? { number: role.number } : {}),
      });
    out.push(...after);
  }

  private roleOf(p: Element): ParagraphRole {
    const pPr = firstChild(p, 'pPr');
    const styleId = attribute(pPr && firstChild(pPr, 'pStyle'), 'val');
    const chain = this.styleChain(styleId);
    const names = chain.map((style) => style.name);
    const numPr = pPr && firstChild(pPr, 'numPr');
    const styleNumbered = chain.find((style) => style.numId);
    const numId = attribute(numPr && firstChild(numPr, 'numId'), 'val') ?? styleNumbered?.numId;
    const ilvl = Number(attribute(numPr && firstChild(numPr, 'ilvl'), 'val') ?? styleNumbered?.ilvl ?? 0) || 0;
    const numbered = numId && numId !== '0' ? this.advance(numId, ilvl) : undefined;

    if (names.includes('title')) return { kind: 'title' };
    const ownOutline = attribute(pPr && firstChild(pPr, 'outlineLvl'), 'val');
    const headingName = names.map((name) => /^heading\s*(\d)$/.exec(name)).find(Boolean);
    const outline =
      ownOutline !== undefined ? Number(ownOutline) : chain.find((s) => s.outlineLevel !== undefined)?.outlineLevel;
    const level = headingName ? Number(headingName[1]) : outline !== undefined && outline < 9 ? outline + 1 : undefined;
    // A numbered heading shows its number ("2.1 Methods"), which is part of what a reader sees.
    if (level !== undefined && level >= 1)
      return { kind: 'heading', level: Math.min(6, level), ...(numbered?.label ? { label: numbered.label } : {}) };
    if (names.includes('caption')) return { kind: 'caption' };

    if (numId && numId !== '0' && (numbered || !this.numbering.has(numId))) {
      const level = Math.min(9, ilvl) + 1;
      // A label the renderers cannot write ("1.2.", "a)", "Article 3") is what a reader sees: it stays in the
      // item's text, as a numbered heading's does, and the item is not numbered again.
      if (numbered?.ordered && numbered.label && !numbered.plain)
        return { kind: 'list-item', level, ordered: false, label: numbered.label };
      // A plain label's counter is the item's number: a list Word resumes after a bullet list goes on at "3.".
      const number = numbered?.ordered && numbered.plain ? numbered.value : undefined;
      return {
        kind: 'list-item',
        level,
        ordered: numbered?.ordered ?? false,
        ...(number !== undefined ? { number } : {}),
      };
    }
    if (names.some((name) => /^list (bullet|number|paragraph)/.test(name)))
      return { kind: 'list-item', level: 1, ordered: names.some((name) => name.startsWith('list number')) };
    return { kind: 'paragraph' };
  }

  /** Counts a numbered paragraph in its list and returns its label, or undefined for a level the list lacks. */
  private advance(
    numId: string,
    ilvl: number,
  ): { ordered: boolean; label: string; plain: boolean; value: number } | undefined {
    const definition = this.numbering.get(numId);
    const level = definition?.levels.get(ilvl);
    if (!definition || !level) return undefined;
    const counters = this.counters.get(definition.list) ?? [];
    const restart = definition.restarts.get(ilvl);
    if (restart !== undefined && !this.restarted.has(`${numId}:${ilvl}`)) {
      this.restarted.add(`${numId}:${ilvl}`);
      counters[ilvl] = restart - 1;
    }
    counters[ilvl] = (counters[ilvl] ?? level.start - 1) + 1;
    counters.length = ilvl + 1;
    this.counters.set(definition.list, counters);
    const label = level.ordered
      ? level.text.replace(/%(\d)/g, (_whole, digit: string) => {
          const at = Number(digit) - 1;
          const atLevel = definition.levels.get(at);
          return formatCounter(
            counters[at] ?? atLevel?.start ?? 1,
            at === ilvl ? level.format : (atLevel?.format ?? 'decimal'),
          );
        })
      : '';
    // A plain label is the level's own decimal counter ("3." or "3)"), which Markdown and the plain text number.
    const plain = level.format === 'decimal' && new RegExp(`^%${ilvl + 1}[.)]?$`).test(level.text.trim());
    return { ordered: level.ordered, label: label.trim(), plain, value: counters[ilvl] };
  }

  private styleChain(styleId: string | undefined): Style[] {
    const chain: Style[] = [];
    for (let id = styleId; id && chain.length < MAX_STYLE_CHAIN;) {
      const style = this.styles.get(id);
      if (!style || chain.includes(style)) break;
      chain.push(style);
      id = style.basedOn;
    }
    return chain;
  }

  private inline(node: Element, state: InlineState, after: TextSegment[]): void {
    for (const child of childElements(node)) {
      switch (localName(child)) {
        case 't':
          state.text += textContent(child);
          if (textContent(child).trim()) state.other = true;
          break;
        case 'tab':
          if (localName(node) === 'r') state.text += '\t';
          break;
        case 'br':
        case 'cr':
          state.text += '\n';
          break;
        case 'noBreakHyphen':
          state.text += '-';
          break;
        case 'footnoteReference':
        case 'endnoteReference': {
          const id = attribute(child, 'id');
          const into = localName(child) === 'footnoteReference' ? this.footnoteIds : this.endnoteIds;
          if (id && !into.includes(id)) into.push(id);
          break;
        }
        case 'oMath': {
          // An equation in running text is written inline, `$...$`, as Markdown and LaTeX readers take it.
          const formula = ommlToLatex(child);
          if (!formula) break;
          state.text += ` $${formula}$ `;
          state.formulas.push(formula);
          break;
        }
        case 'drawing':
        case 'pict':
        case 'object':
          this.drawing(child, after);
          break;
        case 'AlternateContent':
          this.inline(firstChild(child, 'Choice') ?? child, state, after);
          break;
        case 'sdt': {
          // A check box content control is its state, whatever glyph (or none) its content shows.
          const checkbox = descendants(firstChild(child, 'sdtPr') ?? child, 'checkbox')[0];
          if (checkbox) {
            state.text += isChecked(firstChild(checkbox, 'checked')) ? CHECKED : UNCHECKED;
            state.other = true;
          } else this.inline(firstChild(child, 'sdtContent') ?? child, state, after);
          break;
        }
        case 'fldChar': {
          // A legacy check box form field (FORMCHECKBOX) has no text of its own: its state is in its field data.
          const box = pathOf(child, 'ffData', 'checkBox');
          if (box) {
            state.text += isChecked(firstChild(box, 'checked') ?? firstChild(box, 'default')) ? CHECKED : UNCHECKED;
            state.other = true;
          }
          break;
        }
        case 'del':
        case 'moveFrom':
        case 'delText':
        case 'instrText':
        case 'pPr':
        case 'rPr':
        case 'commentReference':
          break;
        default:
          this.inline(child, state, after);
      }
    }
  }

  /** Text boxes and pictures anchored in a run: their text and figures follow the paragraph. */
  private drawing(drawing: Element, after: TextSegment[]): void {
    const boxes = descendants(drawing, 'txbxContent');
    for (const box of boxes) after.push(...this.blocks(box));
    // A chart: its title and the table of its cached data.
    for (const chart of descendants(drawing, 'chart')) {
      const document = this.charts.get(relationshipId(chart) ?? '');
      if (document) after.push(...chartSegments(document));
    }
    for (const blip of [...descendants(drawing, 'blip'), ...descendants(drawing, 'imagedata')]) {
      const id = relationshipId(blip, 'embed') ?? relationshipId(blip, 'id');
      const rel = id ? this.rels.get(id) : undefined;
      const properties = descendants(drawing, 'docPr')[0];
      const alt = attribute(properties, 'descr') ?? attribute(blip.parent as Element, 'alt') ?? '';
      after.push(this.figures.figure(rel?.part, alt));
    }
  }

  private table(tbl: Element): TextSegment | undefined {
    const rows: TableCell[][] = [];
    const openMerges = new Map<number, TableCell>();
    for (const tr of rowsOf(tbl)) {
      const row: TableCell[] = [];
      const trPr = firstChild(tr, 'trPr');
      const header = Boolean(trPr && firstChild(trPr, 'tblHeader'));
      let column = Number(attribute(trPr && firstChild(trPr, 'gridBefore'), 'val') ?? 0);
      for (const tc of cellsOf(tr)) {
        const tcPr = firstChild(tc, 'tcPr');
        const span = Math.max(1, Number(attribute(tcPr && firstChild(tcPr, 'gridSpan'), 'val') ?? 1) || 1);
        const vMerge = tcPr && firstChild(tcPr, 'vMerge');
        const mergeValue = attribute(vMerge, 'val');
        if (vMerge && mergeValue !== 'restart') {
          const above = openMerges.get(column);
          if (above) {
            above.rowSpan = (above.rowSpan ?? 1) + 1;
            column += span;
            continue;
          }
        }
        // What the cell shows, its lists' bullets and numbers included, a line a block.
        const text = tidy(plainTextOf(this.blocks(tc)).replace(/\n\s*\n/g, '\n'));
        const cell: TableCell = { text, ...(header ? { header } : {}), ...(span > 1 ? { colSpan: span } : {}) };
        if (vMerge) openMerges.set(column, cell);
        else openMerges.delete(column);
        row.push(cell);
        column += span;
      }
      rows.push(row);
    }
    return tableElement(rows);
  }
}

/** The cell of a table that has one row of one cell, or undefined. */
function onlyCellOf(tbl: Element): Element | undefined {
  const rows = rowsOf(tbl);
  if (rows.length !== 1) return undefined;
  const cells = cellsOf(rows[0]!);
  return cells.length === 1 ? cells[0] : undefined;
}

function rowsOf(tbl: Element): Element[] {
  const rows: Element[] = [];
  for (const child of childElements(tbl)) {
    const name = localName(child);
    if (name === 'tr') rows.push(child);
    else if (name === 'sdt') rows.push(...rowsOf(firstChild(child, 'sdtContent') ?? child));
    else if (name === 'customXml' || name === 'sdtContent') rows.push(...rowsOf(child));
  }
  return rows;
}

function cellsOf(tr: Element): Element[] {
  const cells: Element[] = [];
  for (const child of childElements(tr)) {
    const name = localName(child);
    if (name === 'tc') cells.push(child);
    else if (name === 'sdt') cells.push(...cellsOf(firstChild(child, 'sdtContent') ?? child));
    else if (name === 'customXml' || name === 'sdtContent') cells.push(...cellsOf(child));
  }
  return cells;
}

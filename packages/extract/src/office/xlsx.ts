import type { Document } from 'domhandler';
import { Parser } from 'htmlparser2';
import type { TableCell } from '../document.ts';
import { ExtractError, type ExtractResult, type TextSegment } from '../types.ts';
import { sheetCharts } from './charts.ts';
import { formatNumber, numberStyleOf, type NumberStyle } from './cell-values.ts';
import { resultOf, tableElement } from './elements.ts';
import type { OfficePackage } from './package.ts';
import { MAX_WORKBOOK_CHARS, TextBudget } from './text-budget.ts';
import { attribute, childElements, descendants, firstChild, pathOf, relationshipId, rootOf } from './xml.ts';

/** A sheet's cells beyond this many (non-empty) are left out, and the metadata says so. */
export const MAX_CELLS_PER_SHEET = 200_000;

export type SheetCut = 'maxCellsPerSheet' | 'maxWorkbookChars';

export interface SheetGrid {
  name: string;
  hidden: boolean;
  cells: Map<number, Map<number, string>>;
  /** The limit the sheet was cut at, if it was: its own cells, or the workbook's characters (`TextBudget`). */
  cut?: SheetCut;
  /** What is drawn on the sheet (charts as their alt text, title and data table; pictures' alt text), after its table. */
  charts?: TextSegment[];
}

/** An Excel workbook (XLSX, XLSM, XLTX) as the document model: per sheet, its name and its used range as a table. */
export async function readXlsx(pkg: OfficePackage): Promise<ExtractResult> {
  const main = await pkg.mainPart('xl/workbook.xml');
  const workbook = await pkg.xml(main);
  const root = workbook && rootOf(workbook);
  if (!root) throw new ExtractError('CORRUPT', 'The workbook has no xl/workbook.xml');
  const rels = await pkg.relationships(main);
  const date1904 = ['1', 'true'].includes(attribute(firstChild(root, 'workbookPr'), 'date1904') ?? '');
  const sharedPart = [...rels.values()].find((rel) => rel.type === 'sharedStrings')?.part;
  const stylesPart = [...rels.values()].find((rel) => rel.type === 'styles')?.part;
  const shared = sharedPart ? sharedStringsOf(await pkg.bytes(sharedPart)) : [];
  const styles = stylesPart ? numberStylesOf(await pkg.xml(stylesPart)) : [];

  const budget = new TextBudget();
  const sheets: SheetGrid[] = [];
  for (const sheet of childElements(firstChild(root, 'sheets') ?? root, 'sheet')) {
    const rel = rels.get(relationshipId(sheet) ?? '');
    if (!rel?.part || rel.type !== 'worksheet' || !pkg.has(rel.part)) continue;
    // Once the workbook's characters are spent, the sheets left keep their names and no cells.
    const read = budget.spent
      ? { cells: new Map<number, Map<number, string>>(), cut: 'maxWorkbookChars' as const }
      : readSheetCells((await pkg.bytes(rel.part))!, { shared, styles, date1904, budget });
    const charts = await sheetCharts(pkg, rel.part);
    sheets.push({
      name: attribute(sheet, 'name') ?? `Sheet ${sheets.length + 1}`,
      hidden: (attribute(sheet, 'state') ?? 'visible') !== 'visible',
      ...read,
      ...(charts.length > 0 ? { charts } : {}),
    });
  }
  return workbookResult(sheets, 'xlsx');
}

/** The elements of a workbook's sheets, with the metadata every spreadsheet format shares. */
export function workbookResult(sheets: SheetGrid[], format: string): ExtractResult {
  const elements: TextSegment[] = [];
  const cutSheets: { sheet: number; name: string; cellsKept: number; cutAt: SheetCut }[] = [];
  sheets.forEach((grid, index) => {
    const sheet = index + 1;
    const position = { sheet, ...(grid.hidden ? { hidden: true } : {}) };
    if (grid.name) elements.push({ kind: 'heading', level: 2, text: grid.name, ...position });
    const table = tableElement(usedRange(grid.cells), position);
    if (table) elements.push(table);
    for (const chart of grid.charts ?? []) elements.push({ ...chart, ...position });
    if (grid.cut) cutSheets.push({ sheet, name: grid.name, cellsKept: cellCount(grid.cells), cutAt: grid.cut });
  });
  const cutAt = (limit: SheetCut) => cutSheets.some((cut) => cut.cutAt === limit);
  return resultOf(elements, {
    format,
    sheetCount: sheets.length,
    ...(cutSheets.length > 0 ? { cutSheets } : {}),
    ...(cutAt('maxCellsPerSheet') ? { maxCellsPerSheet: MAX_CELLS_PER_SHEET } : {}),
    ...(cutAt('maxWorkbookChars') ? { maxWorkbookChars: MAX_WORKBOOK_CHARS } : {}),
  });
}

const cellCount = (cells: Map<number, Map<number, string>>) =>
  [...cells.values()].reduce((sum, line) => sum + line.size, 0);

/** The rows and columns that hold something, in order, the empty ones between them dropped. */
export function usedRange(cells: Map<number, Map<number, string>>): TableCell[][] {
  const rowIndices = [...cells.keys()]
    .filter((row) => [...cells.get(row)!.values()].some((text) => text !== ''))
    .sort((a, b) => a - b);
  const columnSet = new Set<number>();
  for (const row of rowIndices) for (const [column, text] of cells.get(row)!) if (text !== '') columnSet.add(column);
  const columns = [...columnSet].sort((a, b) => a - b);
  const rows = rowIndices.map((row) => columns.map((column) => ({ text: cells.get(row)!.get(column) ?? '' })));
  // A first row of labels over rows of values is the table's header.
  const first = rows[0];
  if (first && rows.length > 1 && first.every((cell) => cell.text !== '' && !/^-?[\d.,]+%?$/.test(cell.text)))
    for (const cell of first) (cell as TableCell).header = true;
  return rows;
}

function sharedStringsOf(bytes: Buffer | undefined): string[] {
  const strings: string[] = [];
  if (!bytes) return strings;
  let current = '';
  let inText = false;
  let phonetic = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.slice(name.indexOf(':') + 1);
        if (local === 'si') current = '';
        else if (local === 'rPh') phonetic++;
        else if (local === 't' && phonetic === 0) inText = true;
      },
      ontext(text) {
        if (inText) current += text;
      },
      onclosetag(name) {
        const local = name.slice(name.indexOf(':') + 1);
        if (local === 'si') strings.push(current);
        else if (local === 'rPh') phonetic--;
        else if (local === 't') inText = false;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(bytes.toString('utf8'));
  return strings;
}

function numberStylesOf(document: Document | undefined): NumberStyle[] {
  const root = document && rootOf(document);
  if (!root) return [];
  const codes = new Map<number, string>();
  for (const format of descendants(firstChild(root, 'numFmts') ?? root, 'numFmt'))
    codes.set(Number(attribute(format, 'numFmtId')), attribute(format, 'formatCode') ?? '');
  const xfs = pathOf(root, 'cellXfs');
  return xfs
    ? childElements(xfs, 'xf').map((xf) => {
        const id = Number(attribute(xf, 'numFmtId') ?? 0);
        return numberStyleOf(id, codes.get(id));
      })
    : [];
}

/** Column letters to a 0-based index: `A` 0, `AA` 26. */
function columnIndex(reference: string): number {
  let index = 0;
  for (const char of reference.toUpperCase()) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

interface SheetContext {
  shared: string[];
  styles: NumberStyle[];
  date1904: boolean;
  budget: TextBudget;
}

/** Streams a worksheet's cells (a sheet can be far larger than a tree of it should be). */
function readSheetCells(
  bytes: Buffer,
  { shared, styles, date1904, budget }: SheetContext,
): { cells: Map<number, Map<number, string>>; cut?: SheetCut } {
  const cells = new Map<number, Map<number, string>>();
  let count = 0;
  let cut: SheetCut | undefined;
  let row = -1;
  let column = -1;
  let cell: { type: string; style: number; value: string; inline: string } | undefined;
  let capture: 'v' | 't' | undefined;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (cut) return;
        const local = name.slice(name.indexOf(':') + 1);
        if (local === 'row') {
          row = attribs.r ? Number(attribs.r) - 1 : row + 1;
          column = -1;
        } else if (local === 'c') {
          column = attribs.r ? columnIndex(attribs.r) : column + 1;
          cell = { type: attribs.t ?? 'n', style: Number(attribs.s ?? 0), value: '', inline: '' };
        } else if (cell && (local === 'v' || local === 't')) capture = local;
      },
      ontext(text) {
        if (!cell || !capture) return;
        if (capture === 'v') cell.value += text;
        else cell.inline += text;
      },
      onclosetag(name) {
        const local = name.slice(name.indexOf(':') + 1);
        if (local === 'v' || local === 't') capture = undefined;
        else if (local === 'c' && cell) {
          const text = cellText(cell, shared, styles, date1904).trim();
          cell = undefined;
          if (!text || row < 0 || column < 0) return;
          if (++count > MAX_CELLS_PER_SHEET) cut = 'maxCellsPerSheet';
          else if (!budget.take(text)) cut = 'maxWorkbookChars';
          if (cut) return;
          let line = cells.get(row);
          if (!line) cells.set(row, (line = new Map()));
          line.set(column, text);
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(bytes.toString('utf8'));
  return { cells, ...(cut ? { cut } : {}) };
}

function cellText(
  cell: { type: string; style: number; value: string; inline: string },
  shared: string[],
  styles: NumberStyle[],
  date1904: boolean,
): string {
  switch (cell.type) {
    case 's':
      return shared[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'b':
      return cell.value === '1' ? 'TRUE' : cell.value === '0' ? 'FALSE' : cell.value;
    case 'str':
    case 'e':
    case 'd':
      return cell.value;
    default: {
      if (cell.value.trim() === '') return '';
      const value = Number(cell.value);
      return Number.isNaN(value) ? cell.value : formatNumber(value, styles[cell.style] ?? 'general', date1904);
    }
  }
}

import { roundBox, unionBox, type Box, type TableCell } from './document.ts';
import type { CellPlace } from './pdf-grids.ts';
import type { TextSegment } from './types.ts';

interface TableBuild {
  at: number;
  box: Box;
  rows: TableCell[][];
  /** Where each cell's text starts on the page, to place cells whose empty neighbours the source leaves out. */
  lefts: Map<TableCell, number>;
}

const widthOf = (row: TableCell[]) => row.reduce((sum, cell) => sum + (cell.colSpan ?? 1), 0);

/**
 * A page's structure tree holds only the cells with text on the page, so a row whose empty cells are left out
 * is shorter than the others: its cells go under the columns they stand in (those of a full row without spans),
 * around the places that cells above span into, and the gaps are empty cells again.
 */
function withEmptyCells(rows: TableCell[][], lefts: Map<TableCell, number>): TableCell[][] {
  const width = Math.max(...rows.map(widthOf));
  const full = rows.find(
    (row) => row.length === width && row.every((cell) => lefts.has(cell) && !cell.rowSpan && !cell.colSpan),
  );
  if (!full) return rows;
  const columns = full.map((cell) => lefts.get(cell)!);
  /** How many rows more each column is taken by a cell spanning down into them. */
  const taken: number[] = new Array<number>(width).fill(0);
  return rows.map((row) => {
    const free = taken.flatMap((rowsLeft, column) => (rowsLeft === 0 ? [column] : []));
    let placed: { cell: TableCell; column: number }[];
    if (widthOf(row) === free.length || row.some((cell) => (cell.colSpan ?? 1) > 1)) {
      let next = 0;
      placed = row.map((cell) => {
        const column = free[next] ?? width;
        next += cell.colSpan ?? 1;
        return { cell, column };
      });
    } else {
      // Each cell in the free column nearest its left edge, after the cells placed so far and leaving room
      // for the cells after it.
      placed = [];
      let next = 0;
      row.forEach((cell, index) => {
        const left = lefts.get(cell);
        const last = free.length - (row.length - index);
        let at = next;
        if (left !== undefined)
          for (let f = next; f <= last; f++)
            if (Math.abs(columns[free[f]!]! - left) < Math.abs(columns[free[at]!]! - left)) at = f;
        placed.push({ cell, column: free[at] ?? width });
        next = at + 1;
      });
    }
    for (let column = 0; column < width; column++) if (taken[column]! > 0) taken[column]!--;
    for (const { cell, column } of placed)
      if ((cell.rowSpan ?? 1) > 1 && column < width) taken[column] = cell.rowSpan! - 1;
    const out: TableCell[] = [];
    for (let f = 0; f < free.length; f++) {
      const cell = placed.find((p) => p.column === free[f])?.cell;
      out.push(cell ?? { text: '' });
      if (cell) f += (cell.colSpan ?? 1) - 1;
    }
    // (A row whose spans the free columns cannot hold is kept as the source gives it.)
    return placed.some((p) => p.column >= width) ? row : out;
  });
}

/** Each cell's first column, placing the cells of every row around the cells that span down into it. */
function columnsOf(rows: TableCell[][]): Map<TableCell, number> {
  const columns = new Map<TableCell, number>();
  const taken: number[] = [];
  for (const row of rows) {
    let column = 0;
    for (const cell of row) {
      while ((taken[column] ?? 0) > 0) column++;
      columns.set(cell, column);
      for (let c = column; c < column + (cell.colSpan ?? 1); c++) taken[c] = cell.rowSpan ?? 1;
      column += cell.colSpan ?? 1;
    }
    taken.forEach((left, c) => (taken[c] = Math.max(0, left - 1)));
  }
  return columns;
}

/**
 * A drawn table without its empty rows at the foot and empty columns at the right: a slide's grid of filled
 * cells drawn bigger than its text needs. A cell spanning into a row or column taken away spans no further.
 */
function withoutEmptyEdges(rows: TableCell[][]): TableCell[][] {
  let out = rows.map((row) => row.map((cell) => ({ ...cell })));
  // (A row a cell with text spans down into is not empty.)
  const spannedInto = (r: number) =>
    out.slice(0, r).some((row, above) => row.some((cell) => cell.text && (cell.rowSpan ?? 1) > r - above));
  while (out.length > 1 && out.at(-1)!.every((cell) => !cell.text) && !spannedInto(out.length - 1)) out.pop();
  out.forEach((row, r) => {
    for (const cell of row) if ((cell.rowSpan ?? 1) > out.length - r) cell.rowSpan = out.length - r;
  });
  for (;;) {
    const columns = columnsOf(out);
    const last = Math.max(...out.flat().map((cell) => columns.get(cell)! + (cell.colSpan ?? 1) - 1));
    const covering = out.flat().filter((cell) => columns.get(cell)! + (cell.colSpan ?? 1) - 1 === last);
    // (Not where a row would be left without cells: one under a span holding only the last column's cell.)
    const emptied = out.some((row) => row.length > 0 && row.every((cell) => columns.get(cell) === last));
    if (last < 1 || emptied || covering.some((cell) => cell.text)) break;
    out = out.map((row) => row.filter((cell) => !(columns.get(cell) === last)));
    for (const cell of covering) if (columns.get(cell)! < last) cell.colSpan = cell.colSpan! - 1;
  }
  for (const cell of out.flat()) {
    if (cell.colSpan === 1) delete cell.colSpan;
    if (cell.rowSpan === 1) delete cell.rowSpan;
  }
  return out;
}

/**
 * The tables of one page as their cells' text arrives: each table's element takes its place among the page's
 * elements where its first text comes, and gets its rows when the page is done.
 */
export class PageTables {
  private readonly building = new Map<TableCell[][], TableBuild>();

  /**
   * `drawn`: the tables are found by their rules, not named by the file, and one whose text does not fill a
   * table (two rows with two cells of text each, or a first row of two and a row under it) is shapes drawn
   * around text, and given as that text.
   */
  constructor(
    private readonly elements: TextSegment[],
    private readonly page: number,
    private readonly drawn = false,
  ) {}

  add(place: CellPlace, text: string, box: Box): void {
    let table = this.building.get(place.table);
    if (!table) {
      // The source's rows, copied: the same table met again (another page's part of it) starts empty.
      const rows = place.table.map((row) => row.map((cell) => ({ ...cell })));
      table = { at: this.elements.length, box, rows, lefts: new Map() };
      this.building.set(place.table, table);
      this.elements.push({ text: '', page: this.page, box, kind: 'table' });
    }
    table.box = unionBox(table.box, box);
    const cell = table.rows[place.row]![place.column]!;
    if (!table.lefts.has(cell)) table.lefts.set(cell, box[0]);
    cell.text = cell.text ? `${cell.text}\n${text}` : text;
  }

  finish(): void {
    for (const table of this.building.values()) {
      const texts = (row: TableCell[]) => row.filter((cell) => cell.text).length;
      const filled = table.rows.filter((row) => texts(row) >= 2).length;
      const headed = texts(table.rows[0] ?? []) >= 2 && table.rows.length >= 2;
      if (this.drawn && filled < 2 && !headed) {
        const text = table.rows.flatMap((row) => row.flatMap((cell) => (cell.text ? [cell.text] : []))).join('\n');
        this.elements[table.at] = { text, page: this.page, box: roundBox(table.box) };
        continue;
      }
      const found = withEmptyCells(table.rows, table.lefts);
      const rows = this.drawn ? withoutEmptyEdges(found) : found;
      const text = rows.map((row) => row.map((cell) => cell.text).join('\t')).join('\n');
      this.elements[table.at] = { text, page: this.page, box: roundBox(table.box), kind: 'table', rows };
    }
  }
}

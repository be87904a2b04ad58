import type { Box, TableCell } from './document.ts';

/** Where a piece of text stands in a table: the table's rows of cells (shared by its pieces) and its cell. */
export interface CellPlace {
  table: TableCell[][];
  row: number;
  column: number;
}

/** A table drawn as a grid of rules, with the place of each of its cells on the page. */
export interface RuledTable {
  box: Box;
  /** Its rows of cells, text left to fill. */
  cells: TableCell[][];
  /**
   * The cell (its top-left corner's row and column, as `table` lists it) at a point, or undefined outside; the
   * same object for every point of one cell.
   */
  placeAt(x: number, y: number): CellPlace | undefined;
}

/** A character of the page's text: its box's left and right edges and centre, its font's size, and its line. */
export interface Glyph {
  left: number;
  right: number;
  x: number;
  y: number;
  size: number;
  line: number;
  /** Its place in the page's painting order (its text object's), where known. */
  order?: number;
}

/** An opaque rectangle the page paints (a cell's shading, a slide's shape), and its place in the painting order. */
export interface Fill {
  box: Box;
  order: number;
}

/** Whether a glyph is under an opaque fill painted after it. */
const hiddenUnder = (fills: Fill[], glyph: Glyph) =>
  glyph.order !== undefined &&
  fills.some(
    ({ box: [x0, y0, x1, y1], order }) =>
      order > glyph.order! && glyph.x >= x0 && glyph.x <= x1 && glyph.y >= y0 && glyph.y <= y1,
  );

/**
 * The lines (their numbers) hidden whole under opaque fills painted after them: a slide's text box a table is
 * laid over, which the reader never sees and which belongs to none of the cells it falls in. A line hidden in
 * part (words under a redaction's box) is read as it stands.
 */
export function hiddenLines(glyphs: Glyph[], fills: Fill[]): Set<number> {
  const hidden = new Set<number>();
  if (fills.length === 0) return hidden;
  const seen = new Set<number>();
  for (const glyph of glyphs) {
    const first = !seen.has(glyph.line);
    seen.add(glyph.line);
    if (hiddenUnder(fills, glyph)) {
      if (first) hidden.add(glyph.line);
    } else hidden.delete(glyph.line);
  }
  return hidden;
}

/**
 * The least gap between the texts of two cells side by side (twice a cell's padding), in ems of the font: a
 * word space's gap between two glyphs' ink is about 0.4 em.
 */
const MIN_CELL_GAP = 0.5;

/** The cell of any of the tables at a glyph. */
export function placeOf(tables: RuledTable[], glyph: Glyph): CellPlace | undefined {
  for (const table of tables) {
    const place = table.placeAt(glyph.x, glyph.y);
    if (place) return place;
  }
  return undefined;
}

/**
 * The tables whose text stands apart at their column rules, by the cells' padding on both sides. Text that runs
 * on over a rule (a word cut, or words a word space apart) is shapes drawn around text (a flowchart's boxes,
 * words framed one by one), not a table. `glyphs` is the page's text in order, blanks left out; lines in
 * `hidden` are not read.
 */
export function keepingTextApart(tables: RuledTable[], glyphs: Glyph[], hidden = new Set<number>()): RuledTable[] {
  const crossed = new Set<TableCell[][]>();
  let before: { glyph: Glyph; place: CellPlace | undefined } | undefined;
  for (const glyph of glyphs) {
    if (hidden.has(glyph.line)) continue;
    const place = placeOf(tables, glyph);
    if (
      before &&
      before.glyph.line === glyph.line &&
      place &&
      before.place &&
      place !== before.place &&
      place.table === before.place.table &&
      glyph.left - before.glyph.right < glyph.size * MIN_CELL_GAP
    )
      crossed.add(place.table);
    before = { glyph, place };
  }
  return tables.filter((table) => !crossed.has(table.cells));
}

/** A rule is at most this thick, and at least this long, in points. */
const MAX_RULE_WIDTH = 3;
const MIN_RULE_LENGTH = 6;
/** Rules this close are one, and touch a rule they stop this short of. */
const TOLERANCE = 2;
const MAX_RULE_PAIRS = 250_000;

interface Rule {
  /** Where it stands across (a horizontal rule's y), and from where to where it runs along. */
  at: number;
  from: number;
  to: number;
}

const center = (a: number, b: number) => (a + b) / 2;

/** The distinct positions of rules, those within the tolerance taken as one. */
function positions(rules: Rule[]): number[] {
  const sorted = rules.map((rule) => rule.at).sort((a, b) => a - b);
  const found: number[] = [];
  for (const at of sorted) if (found.length === 0 || at - found.at(-1)! > TOLERANCE) found.push(at);
  return found;
}

/** Whether a rule at `position` covers `along` (between two of its ends, with the tolerance). */
const covers = (rules: Rule[], position: number, along: number) =>
  rules.some(
    (rule) =>
      Math.abs(rule.at - position) <= TOLERANCE && rule.from - TOLERANCE <= along && along <= rule.to + TOLERANCE,
  );

/** Groups of rules that touch one another: each a table's grid, or a lone line (an underline, a frame). */
function touchingGroups(horizontal: Rule[], vertical: Rule[]): { horizontal: Rule[]; vertical: Rule[] }[] {
  const all = [
    ...horizontal.map((rule) => ({ rule, across: false })),
    ...vertical.map((rule) => ({ rule, across: true })),
  ];
  const parent = all.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const touch = (h: Rule, v: Rule) =>
    v.at >= h.from - TOLERANCE && v.at <= h.to + TOLERANCE && h.at >= v.from - TOLERANCE && h.at <= v.to + TOLERANCE;
  for (let i = 0; i < horizontal.length; i++)
    for (let j = 0; j < vertical.length; j++)
      if (touch(horizontal[i]!, vertical[j]!)) parent[root(i)] = root(horizontal.length + j);
  const groups = new Map<number, { horizontal: Rule[]; vertical: Rule[] }>();
  all.forEach(({ rule, across }, i) => {
    const group = groups.get(root(i)) ?? { horizontal: [], vertical: [] };
    groups.set(root(i), group);
    (across ? group.vertical : group.horizontal).push(rule);
  });
  return [...groups.values()];
}

/** The rules across the page among its thin path objects' boxes (a table's rules under its rows, an underline). */
export function rulesAcross(boxes: Box[]): Box[] {
  return boxes.filter(([x0, y0, x1, y1]) => y1 - y0 <= MAX_RULE_WIDTH && x1 - x0 >= MIN_RULE_LENGTH);
}

/** A page's width and height in PDF points. */
export interface PageSize {
  width: number;
  height: number;
}

/** Whether a rule is the page's outline: along one of its edges, from end to end (within the tolerance). */
const outlines = (rule: Rule, across: number, along: number) =>
  (Math.abs(rule.at) <= TOLERANCE || Math.abs(rule.at - across) <= TOLERANCE) &&
  rule.from <= TOLERANCE &&
  rule.to >= along - TOLERANCE;

/**
 * The tables a page draws as ruled grids, from its thin path objects' boxes (PDF points from the page's top
 * left). A grid needs two rows and two columns; a cell whose rule is missing between it and its neighbour
 * spans both (a merged cell), as long as the merged places form a rectangle. A rule along the page's edge from
 * end to end is the page's own outline (a slide's background rectangle), not a table's: a table running off the page would
 * otherwise join it and read as one cell ringing the table, which is no rectangle.
 */
export function ruledTables(boxes: Box[], page?: PageSize): RuledTable[] {
  const horizontal: Rule[] = [];
  const vertical: Rule[] = [];
  for (const [x0, y0, x1, y1] of boxes) {
    const width = x1 - x0;
    const height = y1 - y0;
    if (height <= MAX_RULE_WIDTH && width >= MIN_RULE_LENGTH) {
      const rule = { at: center(y0, y1), from: x0, to: x1 };
      if (!page || !outlines(rule, page.height, page.width)) horizontal.push(rule);
    } else if (width <= MAX_RULE_WIDTH && height >= MIN_RULE_LENGTH) {
      const rule = { at: center(x0, x1), from: y0, to: y1 };
      if (!page || !outlines(rule, page.width, page.height)) vertical.push(rule);
    }
  }
  // (A page of thousands of strokes is a drawing, not a table: its rules are not paired up.)
  if (horizontal.length < 2 || vertical.length < 2 || horizontal.length * vertical.length > MAX_RULE_PAIRS) return [];
  const tables: RuledTable[] = [];
  for (const group of touchingGroups(horizontal, vertical)) {
    const ys = positions(group.horizontal);
    const xs = positions(group.vertical);
    if (ys.length < 3 || xs.length < 3) continue;
    const table = gridTable(group, xs, ys);
    if (table) tables.push(table);
  }
  return tables;
}

function gridTable(
  group: { horizontal: Rule[]; vertical: Rule[] },
  xs: number[],
  ys: number[],
): RuledTable | undefined {
  const rows = ys.length - 1;
  const columns = xs.length - 1;
  // Each place of the grid joined with its right and lower neighbours where no rule stands between them.
  const owner = Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => r * columns + c));
  const find = (id: number): number => {
    const r = Math.floor(id / columns);
    const c = id % columns;
    return owner[r]![c] === id ? id : (owner[r]![c] = find(owner[r]![c]!));
  };
  const join = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb) return;
    const [keep, drop] = ra < rb ? [ra, rb] : [rb, ra];
    owner[Math.floor(drop / columns)]![drop % columns] = keep;
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      const middleY = center(ys[r]!, ys[r + 1]!);
      const middleX = center(xs[c]!, xs[c + 1]!);
      if (c + 1 < columns && !covers(group.vertical, xs[c + 1]!, middleY)) join(r * columns + c, r * columns + c + 1);
      if (r + 1 < rows && !covers(group.horizontal, ys[r + 1]!, middleX)) join(r * columns + c, (r + 1) * columns + c);
    }
  // Each cell's extent; a merged cell that is no rectangle (a rule missing in a corner) is no table to trust.
  const extent = new Map<number, { top: number; left: number; bottom: number; right: number; count: number }>();
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      const id = find(r * columns + c);
      const e = extent.get(id) ?? { top: r, left: c, bottom: r, right: c, count: 0 };
      e.bottom = Math.max(e.bottom, r);
      e.right = Math.max(e.right, c);
      e.count++;
      extent.set(id, e);
    }
  for (const e of extent.values()) if ((e.bottom - e.top + 1) * (e.right - e.left + 1) !== e.count) return undefined;
  if (extent.size < 4) return undefined;
  const table: TableCell[][] = [];
  const places = new Map<number, CellPlace>();
  for (let r = 0; r < rows; r++) {
    const row: TableCell[] = [];
    for (let c = 0; c < columns; c++) {
      const id = find(r * columns + c);
      const e = extent.get(id)!;
      if (e.top !== r || e.left !== c) continue;
      places.set(id, { table, row: r, column: row.length });
      row.push({
        text: '',
        ...(e.bottom > e.top ? { rowSpan: e.bottom - e.top + 1 } : {}),
        ...(e.right > e.left ? { colSpan: e.right - e.left + 1 } : {}),
      });
    }
    table.push(row);
  }
  const indexIn = (edges: number[], at: number) => {
    for (let i = 0; i + 1 < edges.length; i++) if (at >= edges[i]! && at < edges[i + 1]!) return i;
    return -1;
  };
  return {
    box: [xs[0]!, ys[0]!, xs.at(-1)!, ys.at(-1)!],
    cells: table,
    placeAt(x, y) {
      const r = indexIn(ys, y);
      const c = indexIn(xs, x);
      if (r < 0 || c < 0) return undefined;
      return places.get(find(r * columns + c));
    },
  };
}

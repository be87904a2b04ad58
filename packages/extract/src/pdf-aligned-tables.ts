import type { Box, TableCell } from './document.ts';
import type { CellPlace } from './pdf-grids.ts';
import { MARKER } from './pdf-markers.ts';

/** A run of a line's text, with its left and right edges in points from the page's left. */
export interface TextRun {
  text: string;
  left: number;
  right: number;
}

/** What the rule reads of a line of the page (a `LayoutLine`'s fields). */
export interface AlignedLine {
  text: string;
  box: Box;
  size: number;
  bold: boolean;
  /** The line is set in a fixed-pitch font (code). */
  fixedPitch?: boolean;
  /** The line's runs that stand apart, where it has two or more. */
  runs?: TextRun[];
}

/** A piece of a table's text: a run of one of its lines, with the cell it stands in and its box. */
export interface AlignedPiece {
  place: CellPlace;
  text: string;
  box: Box;
}

export interface AlignedTable {
  /** The page's lines the table is made of (they leave the running text). */
  lines: AlignedLine[];
  /** The table's text, run by run, in reading order. */
  pieces: AlignedPiece[];
}

/** A table has at least this many rows of two or more runs, and two columns lined up over as many. */
const MIN_ROWS = 3;
/** Or this many, the first a bold header over the rest. */
const MIN_HEADED_ROWS = 2;
/** Runs line up when their left edges, right edges (numbers) or centres (a header) are this close, in ems. */
const ALIGN_TOLERANCE = 0.6;
/** The widest gap between two rows, in line heights (a table's rows may stand further apart than text lines). */
const MAX_ROW_GAP = 2.5;
/** A line under a row closer than this, in line heights, goes on with the row's cell (a cell's wrapped text). */
const WRAP_GAP = 0.6;
/** At most this many lines of one run in a row: a cell's text wrapped onto them. */
const MAX_SINGLE_ROWS = 2;
/**
 * Lines above the first row, at most this many and this far above it in ems, whose runs each stand over one
 * column, are the table's header (its cells' text on two lines, a header over a column of row headers).
 */
const MAX_HEAD_LINES = 4;
const HEAD_GAP = 3;
/** A header may be set this much bigger than its rows. */
const MAX_HEAD_SIZE = 1.4;
/** The share of a table's rows of runs whose runs each fall in a column of their own. */
const MIN_FITTING = 0.8;
/** Runs of this many words or more are sentences: two columns of text side by side, not a table's cells. */
const SENTENCE_WORDS = 6;

/** A table of contents' line (dot leaders) or a code listing's (a fixed-pitch font) is no table's row. */
const LEADERS = /(?:\.\s?){4,}/u;

interface Row {
  top: number;
  bottom: number;
  runs: { run: TextRun; line: AlignedLine }[];
}

const heightOf = (line: AlignedLine) => line.box[3] - line.box[1];
const runsOf = (line: AlignedLine): TextRun[] =>
  line.runs ?? [{ text: line.text.trim(), left: line.box[0], right: line.box[2] }];
const isRowOfRuns = (line: AlignedLine) =>
  (line.runs?.length ?? 0) >= 2 && !MARKER.test(line.runs![0]!.text) && !LEADERS.test(line.text) && !line.fixedPitch;
const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean).length;

interface Column {
  left: number;
  right: number;
  /** How many rows have a run in it. */
  rows: number;
}

/** Whether a run lines up with a column: by its left edge, its right edge or its centre. */
function linesUp(run: TextRun, column: Column, tolerance: number): boolean {
  return (
    Math.abs(run.left - column.left) <= tolerance ||
    Math.abs(run.right - column.right) <= tolerance ||
    Math.abs((run.left + run.right) / 2 - (column.left + column.right) / 2) <= tolerance
  );
}

/**
 * The rows' columns, from the row with the most runs, and the column of each run (-1 where it lines up with
 * none, or with the column of the run before it).
 */
function columnsOf(rows: Row[], tolerance: number): { columns: Column[]; placed: number[][] } {
  const widest = rows.reduce((best, row) => (row.runs.length > best.runs.length ? row : best));
  const columns: Column[] = widest.runs.map(({ run }) => ({ left: run.left, right: run.right, rows: 0 }));
  const placed = rows.map((row) => {
    let before = -1;
    return row.runs.map(({ run }) => {
      let at = columns.findIndex((column, c) => c > before && linesUp(run, column, tolerance));
      // A run alone in a row (a wrapped line, a row with one cell filled) goes where it stands.
      if (at < 0 && row.runs.length === 1)
        at = columns.findIndex((column, c) => c > before && run.left < column.right && run.right > column.left);
      if (at >= 0) before = at;
      return at;
    });
  });
  placed.forEach((row, r) => {
    if (rows[r]!.runs.length < 2) return;
    for (const c of new Set(row)) if (c >= 0) columns[c]!.rows++;
  });
  return { columns, placed };
}

/** The one column a run stands over, or -1 where it stands over none or several. */
function columnOver(run: TextRun, columns: Column[], tolerance: number): number {
  const over = columns.flatMap((column, c) =>
    run.left < column.right + tolerance && run.right > column.left - tolerance ? [c] : [],
  );
  return over.length === 1 ? over[0]! : -1;
}

/**
 * The lines above a table that are its header: the nearest ones (dropping lines from the top, a caption's) whose
 * runs each stand over one column, two columns at least among them, none a sentence.
 */
function headOf(above: AlignedLine[], columns: Column[], tolerance: number): AlignedLine[] {
  const columnOf = (run: TextRun) => columnOver(run, columns, tolerance);
  for (let from = 0; from < above.length; from++) {
    const head = above.slice(from);
    const runs = head.flatMap(runsOf);
    if (runs.some((run) => columnOf(run) < 0 || wordsOf(run.text) >= SENTENCE_WORDS)) continue;
    if (new Set(runs.map(columnOf)).size >= 2) return head;
  }
  return [];
}

/** The table the rows make (with the lines just above them that head it), or undefined where they are not one. */
function tableOf(rows: Row[], above: AlignedLine[], rules: Box[]): AlignedTable | undefined {
  const ofRuns = rows.filter((row) => row.runs.length >= 2);
  // A bold row over rows not bold, each with as many runs, is a header: with it, two rows make a table.
  const boldHead =
    ofRuns.length === rows.length &&
    rows[0]!.runs.every(({ line }) => line.bold) &&
    rows.slice(1).every((row) => row.runs.every(({ line }) => !line.bold) && row.runs.length === rows[0]!.runs.length);
  const minRows = boldHead ? MIN_HEADED_ROWS : MIN_ROWS;
  if (ofRuns.length < minRows) return undefined;
  const size = ofRuns[0]!.runs[0]!.line.size;
  const { columns, placed } = columnsOf(rows, size * ALIGN_TOLERANCE);
  if (columns.filter((column) => column.rows >= minRows).length < 2) return undefined;
  const fitting = rows.filter((row, r) => row.runs.length >= 2 && !placed[r]!.includes(-1)).length;
  if (fitting < ofRuns.length * MIN_FITTING) return undefined;
  // Every single-run row must fall in a column (text under the table is no row of it).
  if (rows.some((row, r) => row.runs.length < 2 && placed[r]![0]! < 0)) return undefined;
  // Two columns of sentences side by side are running text.
  const sentences = ofRuns.filter((row) => row.runs.every(({ run }) => wordsOf(run.text) >= SENTENCE_WORDS));
  if (sentences.length * 2 > ofRuns.length) return undefined;
  // Two columns, the second of sentences: notes or terms each with its text, set with a hanging indent.
  const explained = ofRuns.filter((row) => wordsOf(row.runs.at(-1)!.run.text) >= SENTENCE_WORDS);
  if (columns.length === 2 && explained.length * 2 > ofRuns.length) return undefined;
  // The same glyph starting every row beside one column of text is a list's bullet in a symbol font ("r", "§").
  const starts = new Set(ofRuns.map((row) => row.runs[0]!.run.text.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '')));
  const bullet = starts.size === 1 && [...starts][0]!.length === 1 && !/\d/.test([...starts][0]!);
  if (bullet && columns.length === 2) return undefined;
  // A last column of equation numbers ("(3)", "(2.1)") is displayed formulas.
  const lastTexts = ofRuns.map((row) => row.runs.at(-1)!.run.text);
  if (lastTexts.every((text) => /^\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)$/.test(text))) return undefined;
  // Labels with their values ("Name: ...", "Date: ...") are a form's fields.
  const labelled = ofRuns.filter((row) => /:\s*$/.test(row.runs[0]!.run.text)).length;
  if (labelled * 2 > ofRuns.length) return undefined;
  const cells: TableCell[][] = [];
  const pieces: AlignedPiece[] = [];
  const lines = new Set<AlignedLine>();
  const head = headOf(above, columns, size * ALIGN_TOLERANCE);
  if (head.length > 0) {
    // The header's lines top to bottom, each run in the column it stands over, as one row.
    cells.push(columns.map(() => ({ text: '', header: true })));
    const runs = head.flatMap((line) => runsOf(line).map((run) => ({ run, line })));
    runs.sort((a, b) => a.line.box[1] - b.line.box[1] || a.run.left - b.run.left);
    for (const { run, line } of runs) {
      lines.add(line);
      const column = columnOver(run, columns, size * ALIGN_TOLERANCE);
      pieces.push({
        place: { table: cells, row: 0, column },
        text: run.text,
        box: [run.left, line.box[1], run.right, line.box[3]],
      });
    }
  }
  // Or a first row all bold over rows that are not, or ruled under where the rows under it are not all ruled.
  const left = Math.min(...rows.flatMap((row) => row.runs.map(({ run }) => run.left)));
  const right = Math.max(...rows.flatMap((row) => row.runs.map(({ run }) => run.right)));
  const ruledUnder = (row: Row, next: Row) =>
    rules.some(
      ([x0, y0, x1, y1]) =>
        (y0 + y1) / 2 >= row.bottom - 1 &&
        (y0 + y1) / 2 <= next.top + 1 &&
        Math.min(x1, right) - Math.max(x0, left) >= (right - left) / 2,
    );
  const bold =
    rows[0]!.runs.every(({ line }) => line.bold) &&
    rows.slice(1).some((row) => row.runs.some(({ line }) => !line.bold));
  const ruled = ruledUnder(rows[0]!, rows[1]!) && !rows.slice(1, -1).every((row, r) => ruledUnder(row, rows[r + 2]!));
  const header = head.length === 0 && (bold || ruled);
  rows.forEach((row, r) => {
    const previous = rows[r - 1];
    // One run just under a row, in a column that row fills: the rest of that cell's text.
    const wrapped =
      previous !== undefined &&
      row.runs.length === 1 &&
      row.top - previous.bottom < heightOf(row.runs[0]!.line) * WRAP_GAP &&
      previous.runs.some((_, i) => placed[r - 1]![i] === placed[r]![0]);
    if (!wrapped) cells.push(columns.map(() => (header && r === 0 ? { text: '', header: true } : { text: '' })));
    row.runs.forEach(({ run, line }, i) => {
      lines.add(line);
      const column = Math.max(0, placed[r]![i]!);
      pieces.push({
        place: { table: cells, row: cells.length - 1, column },
        text: run.text,
        box: [run.left, line.box[1], run.right, line.box[3]],
      });
    });
  });
  return { lines: [...lines], pieces };
}

/**
 * Tables set out in aligned columns without column rules, among a page's lines in reading order (running
 * headers and footers and ruled tables' text left out): lines whose text stands apart in two or more runs, one
 * under the other, whose runs line up (left, right or centre) in two or more columns over at least three rows (two
 * under a bold header row). Where such rows are no table as a whole, the rows before a line of one run between
 * them may be.
 * A line beside a row (a cell the engine gives as a line of its own) is part of that row; a line just under a
 * row in one of its columns goes on with that cell. The header is the lines just above whose runs each stand
 * over a column, or else a first row bold over rows that are not, or with a rule under it (`rules`: the page's
 * rules across) and not under every row. Labels with their values, list markers and their items, columns of
 * sentences, numbered formulas, a table of contents' dot leaders and code in a fixed-pitch font are not tables.
 */
export function alignedTables(lines: AlignedLine[], rules: Box[] = []): AlignedTable[] {
  const found: AlignedTable[] = [];
  const taken = new Set<AlignedLine>();
  for (let i = 0; i < lines.length; i++) {
    if (!isRowOfRuns(lines[i]!) || taken.has(lines[i]!)) continue;
    const first = lines[i]!;
    const rows: Row[] = [
      { top: first.box[1], bottom: first.box[3], runs: runsOf(first).map((run) => ({ run, line: first })) },
    ];
    let singles = 0;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (taken.has(line)) break;
      if (Math.abs(line.size - first.size) > first.size * 0.15) break;
      const middle = (line.box[1] + line.box[3]) / 2;
      const beside = rows.find((row) => middle > row.top && middle < row.bottom);
      if (beside) {
        beside.runs.push(...runsOf(line).map((run) => ({ run, line })));
        beside.runs.sort((a, b) => a.run.left - b.run.left);
        continue;
      }
      const last = rows.at(-1)!;
      const gap = line.box[1] - last.bottom;
      if (gap < -heightOf(line) * 0.5 || gap > heightOf(line) * MAX_ROW_GAP) break;
      const ofRuns = isRowOfRuns(line);
      if (!ofRuns && (line.runs?.length ?? 0) >= 2) break;
      // A line of one run goes on with the row above it (a cell's wrapped text), or the table has ended.
      if (!ofRuns && gap > heightOf(line) * WRAP_GAP) break;
      singles = ofRuns ? 0 : singles + 1;
      if (singles > MAX_SINGLE_ROWS) break;
      rows.push({ top: line.box[1], bottom: line.box[3], runs: runsOf(line).map((run) => ({ run, line })) });
    }
    // (Rows of one run after the last row of runs are the text after the table.)
    while (rows.length > 0 && rows.at(-1)!.runs.length < 2) rows.pop();
    // The lines before the first row: beside a row (a row header the file draws before its row), or over it.
    const above: AlignedLine[] = [];
    for (let k = i - 1; k >= 0 && i - k <= MAX_HEAD_LINES; k--) {
      const line = lines[k]!;
      if (taken.has(line)) break;
      const middle = (line.box[1] + line.box[3]) / 2;
      const beside = rows.find((row) => middle > row.top && middle < row.bottom);
      // A header may be set bigger than the rows (not smaller), its lines all at one size.
      const size = above[0]?.size ?? first.size;
      const sized =
        beside || above.length > 0
          ? Math.abs(line.size - size) <= size * 0.15
          : line.size >= size * 0.85 && line.size <= size * MAX_HEAD_SIZE;
      if (!sized) break;
      if (beside) {
        beside.runs.push(...runsOf(line).map((run) => ({ run, line })));
        beside.runs.sort((a, b) => a.run.left - b.run.left);
        continue;
      }
      const top = Math.min(first.box[1], ...above.map((l) => l.box[1]));
      const reach = above.length === 0 ? first.size * HEAD_GAP : first.size;
      if (line.box[3] > first.box[1] + heightOf(line) * 0.5 || line.box[3] < top - reach) break;
      above.unshift(line);
    }
    let table = tableOf(rows, above, rules);
    // Where the rows are no table as a whole, the rows before a line of one run that goes on with no cell may
    // be one (a caption centred between two tables, the second set out in other columns).
    for (let cut = rows.length - 1; !table && cut >= MIN_HEADED_ROWS; cut--)
      if (rows[cut]!.runs.length < 2 && rows[cut - 1]!.runs.length >= 2)
        table = tableOf(rows.slice(0, cut), above, rules);
    if (!table) continue;
    found.push(table);
    for (const line of table.lines) taken.add(line);
    i = Math.max(...table.lines.map((line) => lines.indexOf(line)));
  }
  return found;
}

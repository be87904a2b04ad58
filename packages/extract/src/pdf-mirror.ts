import { roundBox, type Box } from './document.ts';
import { heightOf, type LayoutLine, type LayoutPage } from './pdf-lines.ts';
import { readsRightToLeft } from './words.ts';

/** A box as it stands in the page's mirror image (left and right swapped about the page's width). */
const mirrorBox = ([x0, y0, x1, y1]: Box, width: number): Box => [width - x1, y0, width - x0, y1];

/** The edge most lines share, to the nearest two points (a margin, not a running head standing past it). */
function mostCommon(edges: number[]): number {
  const counts = new Map<number, number>();
  for (const edge of edges) counts.set(Math.round(edge / 2), (counts.get(Math.round(edge / 2)) ?? 0) + 1);
  let best = 0;
  let most = 0;
  for (const [edge, count] of counts) if (count > most) [best, most] = [edge, count];
  return best * 2;
}

/**
 * The pages to read from the right: those whose letters outside drawn tables are mostly of a right-to-left
 * script (Arabic, Hebrew, Persian), where the document's lines start at the right: over those pages, at least as
 * many right-to-left lines stand at the right margin alone (a paragraph's last line, a heading) as at the left
 * margin alone, the margins being where most lines start and end.
 * (A right-to-left text set flush left, as LibreOffice prints an HTML page's, reads as it stands. A table of
 * contents' or a list's lines hanging from the right touch the left margin alone, so one page does not decide.)
 */
function pagesReadingRightToLeft(pages: LayoutPage[]): Set<number> {
  let atLeft = 0;
  let atRight = 0;
  const found = new Set<number>();
  for (const page of pages) {
    const lines = page.lines.filter((line) => !line.cell);
    if (!readsRightToLeft(lines.map((line) => line.text).join(' '))) continue;
    found.add(page.page);
    // (A line of code or of English among them stands at the left.)
    const written = lines.filter((line) => readsRightToLeft(line.text));
    const left = mostCommon(written.map((line) => line.box[0]));
    const right = mostCommon(written.map((line) => line.box[2]));
    for (const line of written) {
      const touchesLeft = Math.abs(line.box[0] - left) <= line.size;
      const touchesRight = Math.abs(right - line.box[2]) <= line.size;
      if (touchesLeft && !touchesRight) atLeft++;
      if (touchesRight && !touchesLeft) atRight++;
    }
  }
  return atRight >= atLeft ? found : new Set();
}

function mirrorLine(line: LayoutLine, width: number): LayoutLine {
  return {
    ...line,
    box: mirrorBox(line.box, width),
    // (A gap's place is only counted by the rules that read it.)
    ...(line.gaps ? { gaps: line.gaps.map((x) => width - x).reverse() } : {}),
    ...(line.runs
      ? {
          runs: line.runs
            .map((run) => ({ text: run.text, left: width - run.right, right: width - run.left }))
            .reverse(),
        }
      : {}),
  };
}

/** How far apart, in the line's size, two pieces of one line may stand: about a word space and a half. */
const PIECES_APART = 0.5;

/** A note's mark: a number or a sign of a few characters. */
const NOTE_MARK = /^\s*[\p{Nd}*∗†‡§]{1,3}\s*$/u;

/**
 * Whether two lines the engine gives one after the other are pieces of one line: side by side on the same
 * baseline, a word space apart. PDFium breaks a right-to-left line where a note's mark stands raised in it,
 * and gives the piece on the left first.
 */
function piecesOfOneLine(a: LayoutLine, b: LayoutLine): boolean {
  if (a.cell || b.cell) return false;
  const [left, right] = a.box[0] <= b.box[0] ? [a, b] : [b, a];
  const gap = right.box[0] - left.box[2];
  if (gap < -1 || gap > Math.max(a.size, b.size) * PIECES_APART) return false;
  // A note's mark set smaller and raised beside the line's text.
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  if (NOTE_MARK.test(small.text) && small.size < big.size * 0.9)
    return small.box[3] > big.box[1] && small.box[1] < (big.box[1] + big.box[3]) / 2;
  if (big.size - small.size > small.size * 0.1) return false;
  const overlap = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
  return overlap >= Math.min(heightOf(a.box), heightOf(b.box)) * 0.6;
}

/** Two pieces of a mirrored line as one, the one on the left first (the first of the text read right to left). */
function joined(a: LayoutLine, b: LayoutLine): LayoutLine {
  const [left, right] = a.box[0] <= b.box[0] ? [a, b] : [b, a];
  const main = left.text.length >= right.text.length ? left : right;
  // The runs meet where the pieces do: the left piece's last run goes on into the right one's first.
  const runsOf = (line: LayoutLine) => line.runs ?? [{ text: line.text.trim(), left: line.box[0], right: line.box[2] }];
  const [last, ...before] = [...runsOf(left)].reverse();
  const [first, ...after] = runsOf(right);
  const meeting = { text: `${last!.text} ${first!.text}`, left: last!.left, right: first!.right };
  const runs = left.runs || right.runs ? [...before.reverse(), meeting, ...after] : [];
  return {
    ...main,
    text: `${left.text.trimEnd()} ${right.text.trimStart()}`,
    box: [left.box[0], Math.min(a.box[1], b.box[1]), Math.max(a.box[2], b.box[2]), Math.max(a.box[3], b.box[3])],
    gaps: [...(left.gaps ?? []), ...(right.gaps ?? [])],
    ...(runs.length > 0 ? { runs } : {}),
  };
}

/**
 * A page written right to left as its mirror image, so that the rules for reading lines that start at the left
 * margin read it: its paragraphs' lines start at the right and end ragged on the left, a list's markers stand at
 * the right of its items, a table's first column is its rightmost and the right column of two is read first.
 * A drawn table's lines stay as they stand: their cells' places come from the table's rules.
 */
function mirrorPage(page: LayoutPage): LayoutPage {
  const lines: LayoutLine[] = [];
  for (const line of page.lines) {
    const mirrored = line.cell ? line : mirrorLine(line, page.width);
    const last = lines.at(-1);
    if (last && piecesOfOneLine(last, mirrored)) lines[lines.length - 1] = joined(last, mirrored);
    else lines.push(mirrored);
  }
  return { ...page, lines, ...(page.rules ? { rules: page.rules.map((rule) => mirrorBox(rule, page.width)) } : {}) };
}

/**
 * The pages as they are read: those `pagesReadingRightToLeft` finds mirrored (`mirrorPage`). `rightToLeft` says
 * whether a page was; `onPage` gives a box of the page read, rounded, as it stands on the page drawn.
 */
export function pagesAsRead(pagesAsDrawn: LayoutPage[]): {
  pages: LayoutPage[];
  rightToLeft: (page: number) => boolean;
  onPage: (page: number, box: Box) => Box;
} {
  const widthsOfMirrored = new Map<number, number>();
  const fromTheRight = pagesReadingRightToLeft(pagesAsDrawn);
  const pages = pagesAsDrawn.map((page) => {
    if (!fromTheRight.has(page.page)) return page;
    widthsOfMirrored.set(page.page, page.width);
    return mirrorPage(page);
  });
  return {
    pages,
    rightToLeft: (page) => widthsOfMirrored.has(page),
    onPage: (page, box) => {
      const width = widthsOfMirrored.get(page);
      return roundBox(width === undefined ? box : mirrorBox(box, width));
    },
  };
}

import type { TextRun } from './pdf-aligned-tables.ts';

/**
 * The least gap between two of a line's runs, in the run's heights, for them to stand apart: a word space is
 * about a third of a height, the padding between two cells of a table printed without rules half a height or more.
 */
const RUN_GAP = 0.5;

/** A rectangle of a line's text, as the engine gives it: its left and right edges and its height. */
export interface TextRect {
  left: number;
  right: number;
  height: number;
}

/**
 * Each run's left and right edges, left to right (`[left0, right0, left1, right1, ...]`), where a run is the text
 * between gaps wider than RUN_GAP heights; by where the rectangles stand, whatever order the text gives them in
 * (right to left in Arabic or Hebrew, or a column the file draws after the ones on its right).
 */
export function runEdgesOf(rects: readonly TextRect[]): number[] {
  const edges: number[] = [];
  for (const { left, right, height } of [...rects].sort((a, b) => a.left - b.left)) {
    if (edges.length > 0 && left - edges.at(-1)! <= height * RUN_GAP)
      edges[edges.length - 1] = Math.max(edges.at(-1)!, right);
    else edges.push(left, right);
  }
  return edges;
}

/** Half a point of slack: a glyph's box may start a little left of its run's rectangle. */
const EDGE_SLACK = 0.5;

/**
 * A line's text cut into its runs by where each character stands on the page, not by the order of the text:
 * a right-to-left line (Arabic, Hebrew) is written right to left, so walking it from the left edge would put
 * every character in the last run. A character goes to the last run whose left edge its box reaches; one
 * without a box (a space, PDFium's mark for a hyphen) goes with the character before it, or, at the line's
 * start, with the first that has one. Each run keeps its characters in the text's order.
 *
 * `lefts[i]` is the left edge of character `i`'s box, undefined where it has none; `edges` holds each run's
 * left and right edges, left to right (`[left0, right0, left1, right1, ...]`).
 */
export function runsOfLine(text: string, lefts: readonly (number | undefined)[], edges: readonly number[]): TextRun[] {
  const count = edges.length / 2;
  const runOf = (left: number) => {
    let run = count - 1;
    while (run > 0 && left < edges[run * 2]! - EDGE_SLACK) run--;
    return run;
  };
  const firstBoxed = lefts.findIndex((left) => left !== undefined);
  let run = firstBoxed < 0 ? 0 : runOf(lefts[firstBoxed]!);
  const texts = new Array<string>(count).fill('');
  for (let i = 0; i < text.length; i++) {
    const left = lefts[i];
    if (left !== undefined) run = runOf(left);
    texts[run] += text[i]!;
  }
  return texts.map((runText, r) => ({ text: runText.trim(), left: edges[r * 2]!, right: edges[r * 2 + 1]! }));
}

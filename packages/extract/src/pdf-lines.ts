import type { Box } from './document.ts';
import type { TextRun } from './pdf-aligned-tables.ts';
import type { CellPlace } from './pdf-grids.ts';
import type { LineTag } from './pdf-tags.ts';

/** One line of a page's text layer, as the engine groups it. */
export interface LayoutLine {
  text: string;
  /** `[x0, y0, x1, y1]` in points from the page's top left. */
  box: Box;
  /** The font's size on the line, in points (any consistent measure: only ratios are read). */
  size: number;
  bold: boolean;
  /** The line is set in italics, in its middle and at one end (a heading's number may stand upright). */
  italic?: boolean;
  /** The font's name, where the engine gives it. */
  font?: string;
  /** The line is set in a fixed-pitch font, start, middle and end (code). */
  fixedPitch?: boolean;
  /** Where the line's text stands apart (a table row's cells, a tab after a number): each run's left edge. */
  gaps?: number[];
  /** The line's text in runs a little more than a word space apart, with their edges, where it has two or more. */
  runs?: TextRun[];
  /** In a tagged PDF, the structure element the line belongs to. */
  tag?: LineTag;
  /** The cell of a table drawn as a ruled grid that the line's text stands in. */
  cell?: CellPlace;
}

export interface LayoutPage {
  page: number;
  width: number;
  height: number;
  lines: LayoutLine[];
  /** The rules drawn across the page (a table's rule under its header), where the engine gives them. */
  rules?: Box[];
}

/** A box's height. */
export const heightOf = (box: Box) => box[3] - box[1];

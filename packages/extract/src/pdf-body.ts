import type { LayoutLine, LayoutPage } from './pdf-lines.ts';

/** How much bigger than the body text a line must be to read as a heading without being bold. */
export const HEADING_SIZE_RATIO = 1.15;

/** The body text of a document: the size, weight and font most of its text is set in. */
export interface BodyText {
  size: number;
  /** Most of the text at the body's size is bold (then bold says nothing about headings). */
  bold: boolean;
  /** '' when the engine gives no names. */
  font: string;
}

/** The body text of the pages, their running headers and footers left out. */
export function bodyText(pages: LayoutPage[], running: Map<LayoutLine, unknown>): BodyText {
  // (Not the running headers and footers: a deck's footer on every slide can outweigh its slides' text.)
  const size = bodySize(pages, running);
  return { size, bold: bodyIsBold(pages, size), font: bodyFont(pages, size) };
}

/**
 * The most common font size of the document's text, weighted by characters: the body text's. A ruled table's
 * cells are set at a size of their own (a slide's table can outweigh its slides' text), so they count only in
 * a document that is all tables.
 */
export function bodySize(pages: LayoutPage[], running?: Map<LayoutLine, unknown>): number {
  const weights = new Map<number, number>();
  const flowing = pages.some(({ lines }) => lines.some((line) => !line.cell));
  for (const { lines } of pages)
    for (const line of lines) {
      if ((flowing && line.cell) || running?.has(line)) continue;
      const size = Math.round(line.size * 2) / 2;
      weights.set(size, (weights.get(size) ?? 0) + line.text.length);
    }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) if (weight > bestWeight) [best, bestWeight] = [size, weight];
  return best;
}

/** The font most of the text at the body's size is set in ('' when the engine gives no names). */
function bodyFont(pages: LayoutPage[], body: number): string {
  const weights = new Map<string, number>();
  for (const { lines } of pages)
    for (const line of lines)
      if (line.font && Math.round(line.size * 2) / 2 === body)
        weights.set(line.font, (weights.get(line.font) ?? 0) + line.text.length);
  let best = '';
  let bestWeight = -1;
  for (const [font, weight] of weights) if (weight > bestWeight) [best, bestWeight] = [font, weight];
  return best;
}

/** Whether most of the text at the body's size is bold. */
function bodyIsBold(pages: LayoutPage[], body: number): boolean {
  let bold = 0;
  let all = 0;
  for (const { lines } of pages)
    for (const line of lines)
      if (Math.round(line.size * 2) / 2 === body) {
        all += line.text.length;
        if (line.bold) bold += line.text.length;
      }
  return bold > all / 2;
}

import { plainTextOf, type TableCell } from '../document.ts';
import type { ExtractResult, ExtractedImage, TextSegment } from '../types.ts';
import { countWords, normalizeText } from '../words.ts';

/** A table element: its text is the cells' text, a row a line, cells tab-separated. */
export function tableElement(rows: TableCell[][], position: Partial<TextSegment> = {}): TextSegment | undefined {
  const kept = rows.filter((row) => row.length > 0);
  if (kept.length === 0 || kept.every((row) => row.every((cell) => !cell.text.trim()))) return undefined;
  const text = kept.map((row) => row.map((cell) => cell.text.replace(/\s+/g, ' ').trim()).join('\t')).join('\n');
  return { kind: 'table', text, rows: kept, ...position };
}

/** Collapses the white space inside a paragraph's runs, keeping its line breaks. */
export const tidy = (text: string) =>
  text
    .replace(/[^\S\n\t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();

/** The extractor's result of a document's elements: the text is theirs as `plainTextOf` writes it. */
export function resultOf(
  elements: TextSegment[],
  metadata: Record<string, unknown>,
  images: ExtractedImage[] = [],
): ExtractResult {
  const segments = elements
    .map((element) => ({ ...element, text: element.kind === 'table' ? element.text : normalizeText(element.text) }))
    .filter((element) => element.text !== '' || element.kind === 'figure');
  // As every other reader's: a list's items a line each after their marker or number.
  const text = plainTextOf(segments);
  return { text, segments, images, metadata: { ...metadata, wordCount: countWords(text) } };
}

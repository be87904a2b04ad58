/**
 * The document model every extractor fills: an ordered list of elements, each a `TextSegment` with a kind.
 * Plain text, Markdown, `/text` segments and search passages are all derived from that one list, so a
 * segment without a `kind` is a paragraph (what every extractor returned before structure existed).
 */
export const ELEMENT_KINDS = [
  'title',
  'heading',
  'paragraph',
  'list-item',
  'table',
  'figure',
  'caption',
  'code',
  'formula',
  'page-header',
  'page-footer',
  'footnote',
  'notes',
] as const;
export type ElementKind = (typeof ELEMENT_KINDS)[number];

/** `[x0, y0, x1, y1]` on the page in PDF points, origin at the page's top left. */
export type Box = [number, number, number, number];

/** The box around two boxes. */
export const unionBox = (a: Box, b: Box): Box => [
  Math.min(a[0], b[0]),
  Math.min(a[1], b[1]),
  Math.max(a[2], b[2]),
  Math.max(a[3], b[3]),
];

/** A box to a hundredth of a point, as elements carry it. */
export const roundBox = (box: Box): Box => box.map((n) => Math.round(n * 100) / 100) as Box;

export interface TableCell {
  text: string;
  /** A header cell (`th`, a table's header row). */
  header?: boolean;
  rowSpan?: number;
  colSpan?: number;
}

/** What an element adds to a plain segment of text. */
export interface StructureFields {
  /** Absent: `paragraph`. */
  kind?: ElementKind;
  /** A heading's level, 1-6; a list item's nesting depth, 1 for the outermost list. */
  level?: number;
  /** A list item of a numbered list. */
  ordered?: boolean;
  /**
   * An ordered item's own number where the source gives one as a plain decimal ("3." in a PDF, `<ol start="3">`,
   * Word's counter): a list resumed after something else keeps its place. Letters and roman numerals give none.
   */
  number?: number;
  /** A table's rows of cells; the element's `text` is the cells' text, a row a line, cells tab-separated. */
  rows?: TableCell[][];
  /** A figure's stored image: a file name in the extractor's `outputDir` (an `ExtractedImage.file`). */
  image?: string;
  /** A code block's language, where the source names one. */
  language?: string;
  /** A slide's number (1-based), beside `page` for documents that have pages. */
  slide?: number;
  /** A sheet's number (1-based) in a workbook. */
  sheet?: number;
  /** Where the element stands on its PDF page. */
  box?: Box;
  /** An element the source hides (a hidden slide's). */
  hidden?: boolean;
}

/** How a segment's text was obtained: the file's own text, optical character recognition, or speech-to-text. */
export const SEGMENT_SOURCES = ['text-layer', 'ocr', 'transcript'] as const;
export type SegmentSource = (typeof SEGMENT_SOURCES)[number];

/**
 * A stretch of the extracted text with where it came from, used for search positions and `/text`; with its
 * structure fields, one element of the document model.
 */
export interface TextSegment extends StructureFields {
  text: string;
  page?: number;
  chapter?: number;
  startMs?: number;
  endMs?: number;
  /** Absent: the type's usual source (`transcript` for audio and video, else `text-layer`). */
  source?: SegmentSource;
  /** OCR's mean confidence over the page or image, 0..100. */
  confidence?: number;
}

/** Whether a list can start at `number`: CommonMark's start numbers have at most nine digits and no sign. */
export const isListNumber = (number: number | undefined): number is number =>
  Number.isInteger(number) && number! >= 0 && number! <= 999_999_999;

/** An ordered item's own number, where it has one a list can start at; the item before it counted on otherwise. */
export const ownNumber = (element: StructureFields): number | undefined =>
  element.ordered && isListNumber(element.number) ? element.number : undefined;

/**
 * The plain text of a document model: its elements' texts in order, a blank line between blocks, and a list's
 * items a line each after their marker (`*`, or their number: the item's own, else one more than the item before),
 * indented two spaces a level, so that each
 * element's text stands in the whole text as it is.
 */
export function plainTextOf(elements: TextSegment[]): string {
  let text = '';
  let previous: TextSegment | undefined;
  /** The number of the last item of each open numbered list, by depth. */
  let numbers: number[] = [];
  for (const element of elements) {
    if (!element.text) continue;
    const inList = element.kind === 'list-item';
    if (text) text += previous?.kind === 'list-item' && inList ? '\n' : '\n\n';
    if (inList) {
      const level = Math.max(1, element.level ?? 1);
      numbers = previous?.kind === 'list-item' ? numbers.slice(0, level) : [];
      const number = element.ordered ? (ownNumber(element) ?? (numbers[level - 1] ?? 0) + 1) : 0;
      numbers[level - 1] = number;
      text += `${'  '.repeat(level - 1)}${element.ordered ? `${number}.` : '*'} `;
    }
    text += element.text;
    previous = element;
  }
  return text;
}

/** Plain text as the document model has it: its paragraphs, at the blank lines between them. */
export function paragraphsOf(text: string): TextSegment[] {
  return text
    .split(/\n[^\S\n]*\n\s*/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => ({ text: paragraph }));
}

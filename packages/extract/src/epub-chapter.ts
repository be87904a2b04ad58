import { paragraphsOf } from './document.ts';
import { pageShape, streamedText } from './html-stream.ts';
import { documentTitle, htmlChapter } from './html-text.ts';
import type { TextSegment } from './types.ts';

/**
 * Past this depth a chapter is read as a flat stream of tags, as a deep web page is: reading the tree recurses
 * through it and overflowed the stack at about 2,500 nested elements, which failed the whole book. Real chapters
 * nest a few dozen deep; the flat reading keeps every line's text as paragraphs, but no headings, lists or tables.
 */
const MAX_CHAPTER_DEPTH = 1_000;

/** A chapter as the document model, with its document title, however deep its markup nests. */
export function readChapter(html: string): { title?: string; elements: TextSegment[] } {
  if (pageShape(html).deepest <= MAX_CHAPTER_DEPTH) return htmlChapter(html);
  const title = documentTitle(html);
  return { ...(title ? { title } : {}), elements: paragraphsOf(streamedText(html).text) };
}

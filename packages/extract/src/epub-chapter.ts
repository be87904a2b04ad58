import { pageShape, streamedText } from './html-stream.ts';
import { documentTitle, htmlToText } from './html-text.ts';

/**
 * Past this depth a chapter is read as a flat stream of tags, as a deep web page is: html-to-text recurses through
 * the tree and overflows the stack at about 2,500 nested elements, which failed the whole book. Real chapters nest a
 * few dozen deep; the flat reading keeps every line's text but not a table's layout.
 */
const MAX_CHAPTER_DEPTH = 1_000;

/** A chapter's readable text and document title, however deep its markup nests. */
export function readChapter(html: string): { title?: string; text: string } {
  if (pageShape(html).deepest <= MAX_CHAPTER_DEPTH) return htmlToText(html);
  const title = documentTitle(html);
  return { ...(title ? { title } : {}), text: streamedText(html).text };
}

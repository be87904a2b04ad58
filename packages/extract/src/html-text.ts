import { convert, type HtmlToTextOptions } from 'html-to-text';
import { parseDocument } from './html-dom.ts';
import { htmlElements } from './html-elements.ts';
import { streamedTitle } from './html-stream.ts';
import type { TextSegment } from './types.ts';

const skip = (selector: string) => ({ selector, format: 'skip' });

const READABLE: HtmlToTextOptions = {
  wordwrap: false,
  // Its default cuts pages past 16 MB without a word; the sandbox's time and memory budget is the limit instead.
  limits: { maxInputLength: Number.MAX_SAFE_INTEGER },
  selectors: [
    ...['nav', 'script', 'style', 'noscript', 'template', 'svg', 'img', 'iframe', 'object'].map(skip),
    // Ruby annotations (the readings set above Japanese or Chinese characters) are not part of the sentence's text.
    ...['rt', 'rp'].map(skip),
    { selector: 'a', options: { ignoreHref: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
};

/** A whole page's readable text and its document title: an EPUB chapter's text. */
export function htmlToText(html: string): { title?: string; text: string } {
  return { title: documentTitle(html), text: readableText(withFallbacks(html)) };
}

/**
 * An EPUB chapter as the document model, with its document title: each image is a `figure` whose `image` is its
 * `src` as the chapter writes it.
 */
export function htmlChapter(html: string): { title?: string; elements: TextSegment[] } {
  return {
    title: documentTitle(html),
    elements: htmlElements(parseDocument(withFallbacks(html)).body, { images: true }),
  };
}

/**
 * An EPUB 3 chapter as a reading system without scripting reads it, as pandoc does: an `<object>` of a media type it
 * cannot render (a quiz, a widget) shows its fallback content, which is the object's children; an `epub:switch` shows
 * its `epub:default`, not the `epub:case`s that need a namespace's renderer. Matched as tags, not parsed: these are
 * XHTML elements that a chapter writes out in full, and `epub:case` does not nest.
 */
function withFallbacks(html: string): string {
  if (!/<(object|epub:switch)\b/i.test(html)) return html;
  return html
    .replace(/<epub:case\b[\s\S]*?<\/epub:case\s*>/gi, '')
    .replace(/<object\b[^>]*?\/>/gi, '')
    .replace(/<object\b[^>]*>/gi, '<div>')
    .replace(/<\/object\s*>/gi, '</div>');
}

/**
 * The readable text of HTML: no navigation elements, scripts, styles or link targets; headings, lists and tables as
 * blocks. Soft hyphens (`&shy;`, where a browser may break a long word) are not kept: a reader never sees them unless a
 * line breaks there, and a word with them in it would not be found by its spelling.
 */
export function readableText(html: string): string {
  return convert(html, READABLE).replace(/\u00ad/g, '');
}

/** The first `<title>` outside embedded SVG/MathML (whose `<title>` elements label icons, not the page). */
export const documentTitle = streamedTitle;

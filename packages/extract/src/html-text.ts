import { convert, type HtmlToTextOptions } from 'html-to-text';
import { streamedTitle } from './html-stream.ts';

const skip = (selector: string) => ({ selector, format: 'skip' });

const READABLE: HtmlToTextOptions = {
  wordwrap: false,
  // Its default cuts pages past 16 MB without a word; the sandbox's time and memory budget is the limit instead.
  limits: { maxInputLength: Number.MAX_SAFE_INTEGER },
  selectors: [
    ...['nav', 'script', 'style', 'noscript', 'template', 'svg', 'img', 'iframe', 'object'].map(skip),
    { selector: 'a', options: { ignoreHref: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
};

/** A whole page's readable text and its document title: an EPUB chapter's text. */
export function htmlToText(html: string): { title?: string; text: string } {
  return { title: documentTitle(html), text: readableText(html) };
}

/** The readable text of HTML: no navigation elements, scripts, styles or link targets; headings, lists and tables as blocks. */
export function readableText(html: string): string {
  return convert(html, READABLE);
}

/** The first `<title>` outside embedded SVG/MathML (whose `<title>` elements label icons, not the page). */
export const documentTitle = streamedTitle;

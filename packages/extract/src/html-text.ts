import { convert, type HtmlToTextOptions } from 'html-to-text';
import { Parser } from 'htmlparser2';

const skip = (selector: string) => ({ selector, format: 'skip' });

const READABLE: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    ...['nav', 'script', 'style', 'noscript', 'template', 'svg', 'img', 'iframe', 'object'].map(skip),
    { selector: 'a', options: { ignoreHref: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
};

/** A page's readable text (no navigation, scripts, styles or link targets) and its document title. */
export function htmlToText(html: string): { title?: string; text: string } {
  return { title: documentTitle(html), text: convert(html, READABLE) };
}

/** The first `<title>` outside embedded SVG/MathML (whose `<title>` elements label icons, not the page). */
function documentTitle(html: string): string | undefined {
  let foreignDepth = 0;
  let inTitle = false;
  let title: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'svg' || name === 'math') foreignDepth++;
        else if (name === 'title' && foreignDepth === 0 && title === undefined) inTitle = true;
      },
      ontext(text) {
        if (inTitle) title = (title ?? '') + text;
      },
      onclosetag(name) {
        if (name === 'svg' || name === 'math') foreignDepth = Math.max(0, foreignDepth - 1);
        else if (name === 'title' && inTitle) {
          inTitle = false;
          title ??= '';
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const cleaned = title?.replace(/\s+/g, ' ').trim();
  return cleaned || undefined;
}

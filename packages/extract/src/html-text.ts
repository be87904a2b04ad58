import { convert, type HtmlToTextOptions } from 'html-to-text';

// Readable prose: headings as written, link texts without their targets, no image file names.
const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', options: { uppercaseHeaderCells: false } },
  ],
};

export function htmlToText(html: string): { title?: string; text: string } {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return { title: title || undefined, text: convert(html, OPTIONS) };
}

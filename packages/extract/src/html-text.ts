import { convert } from 'html-to-text';

export function htmlToText(html: string): { title?: string; text: string } {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return { title: title || undefined, text: convert(html, { wordwrap: false }) };
}

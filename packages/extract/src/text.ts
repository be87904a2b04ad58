import fs from 'node:fs/promises';
import { extractHtmlPage } from './html-article.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import type { Extractor } from './types.ts';
import { normalizeText } from './words.ts';

/** Plain text as it is; HTML as the text of its main content, with what the page says about itself. */
export const extractTextFile: Extractor = async (inputPath, options) => {
  const raw = await fs.readFile(inputPath, 'utf8');
  const sniffed = await sniff(Buffer.from(raw.slice(0, SNIFF_BYTES)));
  if (sniffed.supported && sniffed.mimeType === 'text/html') {
    const page = extractHtmlPage(raw, options.sourceUrl);
    const text = normalizeText(page.text);
    return { text, segments: text ? [{ text }] : [], images: [], metadata: { format: 'html', ...page.metadata } };
  }
  const text = normalizeText(raw);
  return { text, segments: text ? [{ text }] : [], images: [], metadata: { format: 'plain' } };
};

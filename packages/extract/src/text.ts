import fs from 'node:fs/promises';
import { extractHtmlPage } from './html-article.ts';
import { decodeDeclared, decodeHtml } from './html-encoding.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import type { ExtractResult, Extractor } from './types.ts';
import { normalizeText } from './words.ts';

/** Plain text as it is; HTML as the text of its main content, with what the page says about itself. */
export const extractTextFile: Extractor = async (inputPath, options) =>
  extractTextBytes(await fs.readFile(inputPath), options.sourceUrl, options.charset);

/** The same for bytes in memory: the benchmark scores pages this way, without a file each. */
export async function extractTextBytes(bytes: Buffer, sourceUrl?: string, charset?: string): Promise<ExtractResult> {
  const sniffed = await sniff(bytes.subarray(0, SNIFF_BYTES));
  if (sniffed.supported && sniffed.mimeType === 'text/html') {
    const { text: html, encoding } = decodeHtml(bytes, charset);
    const page = extractHtmlPage(html, sourceUrl);
    const text = normalizeText(page.text);
    return {
      text,
      segments: text ? [{ text }] : [],
      images: [],
      metadata: { format: 'html', encoding, ...page.metadata },
    };
  }
  const decoded = charset ? decodeDeclared(bytes, charset) : undefined;
  const text = normalizeText(decoded?.text ?? bytes.toString('utf8'));
  const encoding = decoded ? { encoding: decoded.encoding } : {};
  return { text, segments: text ? [{ text }] : [], images: [], metadata: { format: 'plain', ...encoding } };
}

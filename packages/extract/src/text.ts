import fs from 'node:fs/promises';
import { extractHtmlPage } from './html-article.ts';
import { decodeDeclared, decodeHtml } from './html-encoding.ts';
import { extractOffice, isOfficeMime } from './office/extract-office.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import type { ExtractResult, Extractor } from './types.ts';
import { normalizeText } from './words.ts';

/** Plain text as it is; HTML as the text of its main content, with what the page says about itself. */
export const extractTextFile: Extractor = async (inputPath, options) => {
  const sniffed = await sniff(await readHead(inputPath));
  if (sniffed.supported && isOfficeMime(sniffed.mimeType)) return extractOffice(inputPath, sniffed.mimeType, options);
  return extractTextBytes(await fs.readFile(inputPath), options.sourceUrl, options.charset);
};

async function readHead(inputPath: string): Promise<Buffer> {
  const handle = await fs.open(inputPath, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

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

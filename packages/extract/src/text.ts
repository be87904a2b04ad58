import fs from 'node:fs/promises';
import { extractHtmlPage } from './html-article.ts';
import { paragraphsOf, plainTextOf } from './document.ts';
import { decodeDeclared, decodeHtml } from './html-encoding.ts';
import { isMarkdownFile, markdownElements } from './markdown-elements.ts';
import { extractOffice, isOfficeMime } from './office/extract-office.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import type { ExtractResult, Extractor } from './types.ts';
import { normalizeText } from './words.ts';

/**
 * Plain text as its paragraphs; a Markdown file (by its name or declared type) as its headings, lists, tables and
 * code; HTML as the elements of its main content, with what the page says about itself; an office document (a
 * sniffed ZIP or OLE container, RTF) by the office readers.
 */
export const extractTextFile: Extractor = async (inputPath, options) => {
  const sniffed = await sniff(await readHead(inputPath));
  if (sniffed.supported && isOfficeMime(sniffed.mimeType)) return extractOffice(inputPath, sniffed.mimeType, options);
  return extractTextBytes(await fs.readFile(inputPath), options.sourceUrl, options.charset, {
    markdown: isMarkdownFile(options.fileName, options.mimeType),
  });
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
export async function extractTextBytes(
  bytes: Buffer,
  sourceUrl?: string,
  charset?: string,
  { markdown = false }: { markdown?: boolean } = {},
): Promise<ExtractResult> {
  const sniffed = await sniff(bytes.subarray(0, SNIFF_BYTES));
  if (sniffed.supported && sniffed.mimeType === 'text/html') {
    const { text: html, encoding } = decodeHtml(bytes, charset);
    const page = extractHtmlPage(html, sourceUrl);
    return {
      text: page.text,
      segments: page.elements,
      images: [],
      metadata: { format: 'html', encoding, ...page.metadata },
    };
  }
  const decoded = charset ? decodeDeclared(bytes, charset) : undefined;
  const source = decoded?.text ?? bytes.toString('utf8');
  const encoding = decoded ? { encoding: decoded.encoding } : {};
  if (markdown) {
    const elements = markdownElements(source.replace(/^\uFEFF/, ''));
    return {
      text: plainTextOf(elements),
      segments: elements,
      images: [],
      metadata: { format: 'markdown', ...encoding },
    };
  }
  const text = normalizeText(source);
  return { text, segments: paragraphsOf(text), images: [], metadata: { format: 'plain', ...encoding } };
}

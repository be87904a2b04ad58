import fs from 'node:fs/promises';
import { htmlToText } from './html-text.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import type { Extractor } from './types.ts';
import { normalizeText } from './words.ts';

/** Plain text as it is; HTML as readable text with its title. */
export const extractTextFile: Extractor = async (inputPath) => {
  const raw = await fs.readFile(inputPath, 'utf8');
  const sniffed = await sniff(Buffer.from(raw.slice(0, SNIFF_BYTES)));
  if (sniffed.supported && sniffed.mimeType === 'text/html') {
    const { title, text } = htmlToText(raw);
    const normalized = normalizeText(text);
    return { text: normalized, segments: normalized ? [{ text: normalized }] : [], images: [], metadata: { format: 'html', ...(title ? { title } : {}) } };
  }
  const text = normalizeText(raw);
  return { text, segments: text ? [{ text }] : [], images: [], metadata: { format: 'plain' } };
};

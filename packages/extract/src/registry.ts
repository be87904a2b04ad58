import fs from 'node:fs/promises';
import { extractEpub } from './epub.ts';
import { extractImage } from './image.ts';
import { extractPdf } from './pdf.ts';
import { extractTextFile } from './text.ts';
import type { ContentType, Extractor } from './types.ts';

export interface ExtractorSettings {
  ffmpegPath: string;
  ffprobePath: string;
  speechEngine: 'pocketsphinx' | 'none';
}

/** Types whose extractor has not landed yet are stored and described, never claimed as extracted. */
const describeOnly: Extractor = async (inputPath) => {
  const { size } = await fs.stat(inputPath);
  return { text: '', segments: [], images: [], metadata: { fileSize: size, extracted: false } };
};

export function createExtractor(contentType: ContentType, _settings: ExtractorSettings): Extractor {
  switch (contentType) {
    case 'pdf':
      return extractPdf;
    case 'text':
      return extractTextFile;
    case 'epub':
      return extractEpub;
    case 'image':
      return extractImage;
    default:
      return describeOnly;
  }
}

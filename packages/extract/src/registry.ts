import fs from 'node:fs/promises';
import { extractEpub } from './epub.ts';
import { extractImage } from './image.ts';
import { createMediaExtractor } from './media.ts';
import { extractPdf } from './pdf.ts';
import { createSpeechEngine, type SpeechSettings } from './speech.ts';
import { extractTextFile } from './text.ts';
import type { ContentType, Extractor } from './types.ts';

export interface ExtractorSettings extends SpeechSettings {
  ffmpegPath: string;
  ffprobePath: string;
}

/** Types whose extractor has not landed yet are stored and described, never claimed as extracted. */
const describeOnly: Extractor = async (inputPath) => {
  const { size } = await fs.stat(inputPath);
  return { text: '', segments: [], images: [], metadata: { fileSize: size, extracted: false } };
};

export function createExtractor(contentType: ContentType, settings: ExtractorSettings): Extractor {
  switch (contentType) {
    case 'audio':
    case 'video':
      return createMediaExtractor(settings, createSpeechEngine(settings));
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

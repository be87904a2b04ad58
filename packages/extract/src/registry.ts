import fs from 'node:fs/promises';
import type { PdfOcrSettings } from './pdf-ocr.ts';
import type { PdfEngine } from './pdf.ts';
import type { SpeechSettings } from './speech-engine.ts';
import type { ContentType, Extractor } from './types.ts';

export interface ExtractorSettings extends SpeechSettings, PdfOcrSettings {
  ffmpegPath: string;
  ffprobePath: string;
  pdfEngine: PdfEngine;
}

/** Types whose extractor has not landed yet are stored and described, never claimed as extracted. */
const describeOnly: Extractor = async (inputPath) => {
  const { size } = await fs.stat(inputPath);
  return { text: '', segments: [], images: [], metadata: { fileSize: size, extracted: false } };
};

/**
 * Loads only the extractor asked for: each sandboxed child runs one, and loading all of them (sharp, epub,
 * ffmpeg and speech adapters) cost a PDF's child 0.25 s of its 0.75 s start.
 */
export async function createExtractor(contentType: ContentType, settings: ExtractorSettings): Promise<Extractor> {
  switch (contentType) {
    case 'audio':
    case 'video': {
      const [{ createMediaExtractor }, { createSpeechEngine }] = await Promise.all([
        import('./media.ts'),
        import('./speech.ts'),
      ]);
      return createMediaExtractor(settings, createSpeechEngine(settings));
    }
    case 'pdf': {
      const [{ createPdfExtractor }, { pageOcr }] = await Promise.all([import('./pdf.ts'), import('./pdf-ocr.ts')]);
      return createPdfExtractor(settings.pdfEngine, pageOcr(settings));
    }
    case 'text':
      return (await import('./text.ts')).extractTextFile;
    case 'epub':
      return (await import('./epub.ts')).extractEpub;
    case 'image':
      return (await import('./image.ts')).createImageExtractor(settings);
    default:
      return describeOnly;
  }
}

/** Loads the PDF engine ahead of the first file, for a process that will serve many. */
export async function warmPdfEngine(engine: PdfEngine): Promise<void> {
  await (await import('./pdf.ts')).warmPdfEngine(engine);
}

/** Keeps an OCR engine started for one file for the next, for a process that will serve many. */
export async function keepOcrEngines(): Promise<void> {
  (await import('./ocr.ts')).keepRecognizers();
}

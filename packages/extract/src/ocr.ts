import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { findTrainedData, missingOcrLanguages, type OcrSettings } from './ocr-languages.ts';

export type { OcrSettings } from './ocr-languages.ts';

/** Lines tesseract is less sure of than this are shapes in a picture (fur, foliage), not print. */
export const MIN_LINE_CONFIDENCE = 60;

export interface OcrResult {
  /** The confident lines, a blank line between paragraphs. */
  text: string;
  /** Tesseract's mean confidence over the whole image, 0..100. */
  confidence: number;
  linesKept: number;
  linesDropped: number;
}

/** One tesseract engine, loaded once and used for many images (loading a model costs more than a page). */
export interface Recognizer {
  recognize(image: Buffer): Promise<OcrResult>;
  close(): Promise<void>;
}

/**
 * Starts tesseract with the given languages. Their files may come from different places (npm, a folder), but
 * tesseract.js reads every language from one folder: a private folder of links to each file is that folder.
 */
export async function createRecognizer(settings: OcrSettings): Promise<Recognizer> {
  const languages = settings.ocrLanguages.length ? settings.ocrLanguages : ['eng'];
  const missing = missingOcrLanguages(languages, settings.ocrDataDir);
  if (missing.length) throw new Error(`No OCR trained data for ${missing.join(', ')}`);
  const langPath = await fsp.mkdtemp(path.join(os.tmpdir(), 'quire-ocr-'));
  let worker: Worker;
  try {
    for (const language of languages) {
      await fsp.symlink(
        findTrainedData(language, settings.ocrDataDir)!,
        path.join(langPath, `${language}.traineddata`),
      );
    }
    // gzip: false names the files `<lang>.traineddata`; tesseract.js still inflates those that are gzipped.
    worker = await createWorker(languages.join('+'), OEM.LSTM_ONLY, { langPath, cacheMethod: 'none', gzip: false });
    // Screenshots and photos carry no (or a meaningless) resolution; tesseract warns and guesses without this.
    await worker.setParameters({ user_defined_dpi: '300' });
  } catch (err) {
    await fsp.rm(langPath, { recursive: true, force: true });
    throw err;
  }
  return {
    recognize: async (image) => {
      const { data } = await worker.recognize(image, {}, { text: false, blocks: true });
      const paragraphs: string[] = [];
      let linesKept = 0;
      let linesDropped = 0;
      for (const paragraph of (data.blocks ?? []).flatMap((block) => block.paragraphs)) {
        const lines = paragraph.lines.filter((line) => line.confidence >= MIN_LINE_CONFIDENCE && line.text.trim());
        linesKept += lines.length;
        linesDropped += paragraph.lines.length - lines.length;
        if (lines.length) paragraphs.push(lines.map((line) => line.text.trim()).join('\n'));
      }
      return { text: paragraphs.join('\n\n'), confidence: Math.round(data.confidence), linesKept, linesDropped };
    },
    close: async () => {
      await worker.terminate();
      await fsp.rm(langPath, { recursive: true, force: true });
    },
  };
}

/** Reads the printed text of one image (PNG, JPEG, WebP bytes) with tesseract, offline. */
export async function recognizeText(image: Buffer, settings: OcrSettings): Promise<OcrResult> {
  const recognizer = await createRecognizer(settings);
  try {
    return await recognizer.recognize(image);
  } finally {
    await recognizer.close();
  }
}

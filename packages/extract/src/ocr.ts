import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ocrDirPrefixOf } from './ocr-dirs.ts';
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

/**
 * One tesseract engine, loaded once and used for many images (loading a model costs more than a page). `close`
 * when done with it; `discard` when it failed or is still busy with an image given up on: only then is it
 * never handed out again.
 */
export interface Recognizer {
  recognize(image: Buffer): Promise<OcrResult>;
  close(): Promise<void>;
  discard(): Promise<void>;
}

interface Engine {
  recognize(image: Buffer): Promise<OcrResult>;
  terminate(): Promise<void>;
}

/**
 * In a process that serves many files (the warm sandbox child), the engine of the last document or image is
 * kept for the next: starting tesseract compiles its WebAssembly on every core and reads the model, which
 * costs twice the CPU of reading a worksheet. Off by default, so that a process reading one file keeps no
 * thread alive after it.
 */
let keeping = false;
let idle: { key: string; engine: Engine } | undefined;

export function keepRecognizers(): void {
  keeping = true;
}

/** An engine for these languages: the one kept from the last file when there is one, else a new one. */
export async function openRecognizer(settings: OcrSettings): Promise<Recognizer> {
  const key = JSON.stringify([settings.ocrLanguages, settings.ocrDataDir ?? null]);
  const kept = idle;
  idle = undefined;
  let engine: Engine;
  if (kept?.key === key) engine = kept.engine;
  else {
    await kept?.engine.terminate().catch(() => undefined);
    engine = await startEngine(settings);
  }
  let done = false;
  return {
    recognize: (image) => engine.recognize(image),
    close: async () => {
      if (done) return;
      done = true;
      if (keeping && !idle) idle = { key, engine };
      else await engine.terminate();
    },
    discard: async () => {
      if (done) return;
      done = true;
      await engine.terminate();
    },
  };
}

/**
 * Starts tesseract with the given languages. Their files may come from different places (npm, a folder), but
 * tesseract.js reads every language from one folder: a private folder of links to each file is that folder.
 */
async function startEngine(settings: OcrSettings): Promise<Engine> {
  const languages = settings.ocrLanguages.length ? settings.ocrLanguages : ['eng'];
  const missing = missingOcrLanguages(languages, settings.ocrDataDir);
  if (missing.length) throw new Error(`No OCR trained data for ${missing.join(', ')}`);
  const langPath = await fsp.mkdtemp(path.join(os.tmpdir(), ocrDirPrefixOf(process.pid)));
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
    terminate: async () => {
      await worker.terminate();
      await fsp.rm(langPath, { recursive: true, force: true });
    },
  };
}

/** Reads the printed text of one image (PNG, JPEG, WebP bytes) with tesseract, offline. */
export async function recognizeText(image: Buffer, settings: OcrSettings): Promise<OcrResult> {
  const recognizer = await openRecognizer(settings);
  let result: OcrResult;
  try {
    result = await recognizer.recognize(image);
  } catch (err) {
    await recognizer.discard();
    throw err;
  }
  await recognizer.close();
  return result;
}

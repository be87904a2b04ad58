import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM } from 'tesseract.js';

const require = createRequire(import.meta.url);
// The English model ships in an npm package, so recognition never downloads anything.
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

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

/** Reads the printed English text of an image (PNG, JPEG, WebP bytes) with tesseract, offline. */
export async function recognizeText(image: Buffer): Promise<OcrResult> {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, cacheMethod: 'none', gzip: true });
  try {
    // Screenshots and photos carry no (or a meaningless) resolution; tesseract warns and guesses without this.
    await worker.setParameters({ user_defined_dpi: '300' });
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
  } finally {
    await worker.terminate();
  }
}

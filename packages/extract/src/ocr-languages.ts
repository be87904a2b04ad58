import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Which languages OCR reads and where their trained data lives; nothing is ever downloaded. */
export interface OcrSettings {
  /** Tesseract language codes (`eng`, `fra`), read together (`eng+fra`). */
  ocrLanguages: string[];
  /** A folder of `<lang>.traineddata` files (Debian's `tesseract-ocr-*` packages), searched after the npm packages. */
  ocrDataDir?: string;
}

/**
 * The trained data of one language: the `@tesseract.js-data/<lang>` npm package when installed (gzipped
 * `4.0.0_best_int`), else `<dataDir>/<lang>.traineddata`. Undefined when neither exists.
 */
export function findTrainedData(language: string, dataDir?: string): string | undefined {
  if (!/^[a-z]{3}(_[a-z]+)?$/i.test(language)) return undefined;
  try {
    const packageDir = path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`));
    const file = path.join(packageDir, '4.0.0_best_int', `${language}.traineddata.gz`);
    if (fs.existsSync(file)) return file;
  } catch {
    // not installed from npm; the folder may have it
  }
  const file = dataDir ? path.join(dataDir, `${language}.traineddata`) : undefined;
  return file && fs.existsSync(file) ? file : undefined;
}

/** The languages of `languages` whose trained data cannot be found. */
export function missingOcrLanguages(languages: string[], dataDir?: string): string[] {
  return languages.filter((language) => !findTrainedData(language, dataDir));
}

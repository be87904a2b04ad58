import path from 'node:path';
import { paragraphsOf } from './document.ts';
import { isPixelLimitError, MAX_INPUT_PIXELS, openImage } from './image-files.ts';
import { recognizeText, type OcrSettings } from './ocr.ts';
import { ExtractError, type ExtractedImage, type Extractor, type ImageRole } from './types.ts';
import { normalizeText } from './words.ts';

export const PREVIEW_EDGE = 1600;
export const THUMBNAIL_EDGE = 320;
/** Tesseract reads print well at this size; larger scans only cost time. */
const OCR_MAX_EDGE = 3000;

/** Width, height and format as displayed (EXIF orientation applied), web renditions, and the text it shows. */
export const createImageExtractor =
  (settings: OcrSettings): Extractor =>
  async (inputPath, options) => {
    const info = await openImage(inputPath).metadata().catch(classify);
    const { width, height } = info.autoOrient;

    const images = [
      await rendition(inputPath, 'preview', PREVIEW_EDGE, options.outputDir),
      await rendition(inputPath, 'thumbnail', THUMBNAIL_EDGE, options.outputDir),
    ];
    options.onProgress?.(30);

    const ocrInput = await openImage(inputPath)
      .resize({ width: OCR_MAX_EDGE, height: OCR_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .grayscale()
      .png()
      .toBuffer()
      .catch(classify);
    const { text: ocrText, ...ocr } = await recognizeText(ocrInput, settings);
    const text = normalizeText(ocrText);
    options.onProgress?.(95);

    return {
      text,
      // Its paragraphs, as OCR separates its blocks of text with blank lines.
      segments: paragraphsOf(text).map((paragraph) => ({ ...paragraph, source: 'ocr', confidence: ocr.confidence })),
      images,
      metadata: {
        width,
        height,
        format: info.format,
        ...(info.orientation && info.orientation !== 1 ? { orientation: info.orientation } : {}),
        ...(info.pages && info.pages > 1 ? { frames: info.pages } : {}),
        ocr: { engine: 'tesseract', language: settings.ocrLanguages.join('+'), ...ocr },
      },
    };
  };

async function rendition(inputPath: string, role: ImageRole, edge: number, outputDir: string): Promise<ExtractedImage> {
  const file = `${role}.webp`;
  const output = await openImage(inputPath)
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toFile(path.join(outputDir, file))
    .catch(classify);
  return { file, role, width: output.width, height: output.height, format: 'webp' };
}

function classify(err: unknown): never {
  if (isPixelLimitError(err)) {
    throw new ExtractError(
      'TOO_LARGE',
      `The image has more than ${MAX_INPUT_PIXELS / 1_000_000} million pixels (a decompression bomb is refused before decoding)`,
    );
  }
  throw new ExtractError('CORRUPT', `The image could not be decoded: ${(err as Error)?.message ?? err}`);
}

import sharp from 'sharp';

/** Images smaller than this on either side are decoration (bullets, rules, spacers), not content. */
export const MIN_IMAGE_EDGE = 48;
/** Bounds the images kept from one file, so a scanned 2,000-page book does not flood storage. */
export const MAX_EXTRACTED_IMAGES = 500;
/** A few kilobytes of PNG can declare gigabytes of bitmap; sharp refuses to decode more pixels than this. */
export const MAX_INPUT_PIXELS = 100_000_000;

/** An image decoder that refuses decompression bombs and applies the EXIF orientation. */
export function openImage(input: Uint8Array | string): ReturnType<typeof sharp> {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true });
}

export function isPixelLimitError(err: unknown): boolean {
  return /pixel limit/i.test((err as Error)?.message ?? '');
}

/**
 * Re-encodes an image found inside a document as WebP. Returns undefined for images too small to be content
 * or that do not decode, so one bad picture does not cost the document.
 */
export async function saveAsWebp(
  input: Uint8Array,
  outputPath: string,
): Promise<{ width: number; height: number } | undefined> {
  try {
    const image = openImage(input);
    const { autoOrient } = await image.metadata();
    if (Math.min(autoOrient.width, autoOrient.height) < MIN_IMAGE_EDGE) return undefined;
    const output = await image.webp({ quality: 82 }).toFile(outputPath);
    return { width: output.width, height: output.height };
  } catch {
    return undefined;
  }
}

/**
 * Encodes a decoded bitmap (gray, or PDFium's blue-green-red byte order) as WebP. Returns undefined when it
 * does not encode, so one bad picture does not cost the document.
 */
export async function saveBgrBitmapAsWebp(
  bitmap: { width: number; height: number; channels: 1 | 3 | 4; data: Buffer },
  outputPath: string,
): Promise<{ width: number; height: number } | undefined> {
  try {
    const { width, height, channels, data } = bitmap;
    let image = sharp(data, { raw: { width, height, channels } });
    // The fourth byte is padding or an alpha PDFium already composed: dropped, then blue and red swapped.
    if (channels === 4) image = image.removeAlpha();
    if (channels !== 1)
      image = image.recomb([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ]);
    const output = await image.webp({ quality: 82 }).toFile(outputPath);
    return { width: output.width, height: output.height };
  } catch {
    return undefined;
  }
}

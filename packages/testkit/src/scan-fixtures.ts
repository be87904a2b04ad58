import sharp from 'sharp';
import { makeTextImage, renderPdf } from './fixtures.ts';

/** A US-letter page (612 x 792 pt) scanned at 200 dpi. */
const SCAN_WIDTH = 1700;
const SCAN_HEIGHT = 2200;

/** What a scanner makes of a page showing these lines: a picture of the page, no text layer. */
export async function scanOf(lines: string[]): Promise<Buffer> {
  const drawn = await makeTextImage(lines, { width: SCAN_WIDTH, fontSize: 40 });
  return sharp({ create: { width: SCAN_WIDTH, height: SCAN_HEIGHT, channels: 3, background: '#ffffff' } })
    .composite([{ input: drawn, top: 100, left: 0 }])
    .grayscale()
    .png()
    .toBuffer();
}

/** A blank page through a scanner: a white picture with nothing on it. */
export const blankScan = () =>
  sharp({ create: { width: SCAN_WIDTH, height: SCAN_HEIGHT, channels: 3, background: '#ffffff' } })
    .grayscale()
    .png({ compressionLevel: 9 })
    .toBuffer();

/**
 * A PDF whose pages are either text (a string: a text layer) or a scan (an image filling the page, as a
 * scanner or a phone makes them, with no text layer).
 */
export function scannedPdf(pages: (string | Buffer)[]): Promise<Buffer> {
  return renderPdf({}, (doc) => {
    for (const page of pages) {
      doc.addPage({ size: 'LETTER', margin: 72 });
      if (typeof page === 'string') doc.fontSize(12).text(page);
      else doc.image(page, 0, 0, { width: 612, height: 792 });
    }
  });
}

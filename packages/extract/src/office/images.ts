import path from 'node:path';
import { MAX_EXTRACTED_IMAGES, saveAsWebp } from '../image-files.ts';
import type { ExtractedImage, ExtractOptions, TextSegment } from '../types.ts';
import type { OfficePackage } from './package.ts';

interface Planned {
  part: string;
  file: string;
  page?: number;
  figures: TextSegment[];
}

/**
 * The pictures a document shows, gathered while its text is read (each figure names the file its image will
 * be) and written once the text is out, so that the text is kept should the images overrun their time.
 */
export class FigureImages {
  private readonly planned = new Map<string, Planned>();

  constructor(private readonly extractImages: boolean) {}

  /** A figure element for a picture part of the package; the same picture shown twice is stored once. */
  figure(part: string | undefined, text: string, position: { page?: number; slide?: number } = {}): TextSegment {
    const figure: TextSegment = { kind: 'figure', text: text.trim(), ...position };
    if (!part || !this.extractImages) return figure;
    let planned = this.planned.get(part);
    if (!planned && this.planned.size < MAX_EXTRACTED_IMAGES) {
      const page = position.slide ?? position.page;
      planned = { part, file: `image-${this.planned.size + 1}.webp`, ...(page ? { page } : {}), figures: [] };
      this.planned.set(part, planned);
    }
    if (planned) {
      planned.figures.push(figure);
      figure.image = planned.file;
    }
    return figure;
  }

  /** Writes the pictures; a figure whose picture does not decode (EMF, a broken file) keeps its text only. */
  async save(pkg: OfficePackage, options: ExtractOptions): Promise<ExtractedImage[]> {
    const images: ExtractedImage[] = [];
    const deadline = () => options.imagesDeadline?.() ?? Number.POSITIVE_INFINITY;
    for (const planned of this.planned.values()) {
      const bytes = Date.now() < deadline() ? await pkg.bytes(planned.part).catch(() => undefined) : undefined;
      const output = bytes && (await saveAsWebp(bytes, path.join(options.outputDir, planned.file)));
      if (!output) {
        for (const figure of planned.figures) delete figure.image;
        continue;
      }
      const image: ExtractedImage = {
        file: planned.file,
        role: 'extracted',
        ...(planned.page ? { page: planned.page } : {}),
        width: output.width,
        height: output.height,
        format: 'webp',
      };
      images.push(image);
      options.onImage?.(image);
    }
    return images;
  }
}

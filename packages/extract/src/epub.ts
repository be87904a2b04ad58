import path from 'node:path';
import { EPub } from 'epub2';
import { DomUtils, parseDocument } from 'htmlparser2';
import { bookPath, parseNavDocument, resolveInBook, type NavEntry } from './epub-nav.ts';
import { readChapter } from './epub-chapter.ts';
import { svgTextOf, withoutOpfPrefix } from './epub-package.ts';
import { paragraphsOf, plainTextOf } from './document.ts';
import { MAX_EXTRACTED_IMAGES, saveAsWebp } from './image-files.ts';
import { ExtractError, type ExtractedImage, type Extractor, type TextSegment } from './types.ts';
import { countWords } from './words.ts';
import { openZipArchive, type ZipArchive } from './zip-archive.ts';

const CHAPTER_TYPES = new Set(['application/xhtml+xml', 'text/html']);
// Font obfuscation hides fonts from copying, not the text; any other algorithm means the book is DRM-locked.
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

type ManifestItem = EPub['flow'][number];

/** epub2 reading through the checked archive, so nothing is inflated beyond what its directory declared. */
class CheckedEPub extends EPub {
  constructor(
    file: string,
    private readonly archive: ZipArchive,
  ) {
    super(file);
  }

  override open(): void {
    const archive = this.archive;
    this.zip = {
      names: archive.names,
      count: archive.names.length,
      readFile: (name: string, callback: (error: unknown, data?: Buffer) => void) => {
        archive.read(name).then(
          (data) =>
            this.continueWith(() =>
              callback(null, name === this.rootFile ? Buffer.from(withoutOpfPrefix(data.toString('utf8'))) : data),
            ),
          (err) => this.continueWith(() => callback(err)),
        );
      },
    } as unknown as EPub['zip'];
    this.checkMimeType();
  }

  // epub2 parses inside these callbacks; what it throws there must fail this book, not the process.
  private continueWith(step: () => void): void {
    try {
      step();
    } catch (err) {
      this.emit('error', err);
    }
  }
}

export const extractEpub: Extractor = async (inputPath, options) => {
  const archive = await openZipArchive(inputPath);
  try {
    await refuseDrm(archive);
    const book = await parseBook(inputPath, archive);
    const spine = book.flow.filter((item) => CHAPTER_TYPES.has(item.mediaType ?? ''));
    const chapterOf = new Map(spine.map((item, index) => [bookPath(item.href!), index + 1]));
    const toc = (await readToc(book, archive)).map((entry) => {
      const chapter = entry.href ? chapterOf.get(entry.href.split('#')[0]!) : undefined;
      return { ...entry, ...(chapter ? { chapter } : {}) };
    });

    let text = '';
    const segments: TextSegment[] = [];
    const chapters: {
      chapter: number;
      title?: string;
      href: string;
      offset: number;
      length: number;
      wordCount: number;
    }[] = [];
    const imageRefs: { href: string; chapter: number }[] = [];
    /** Figures whose `image` is still the image's path in the book, until the stored file is known. */
    const figures: TextSegment[] = [];
    for (const [index, item] of spine.entries()) {
      const chapter = index + 1;
      const href = bookPath(item.href!);
      const html = (await archive.read(href)).toString('utf8');
      const converted = readChapter(html);
      const svgText = svgTextOf(html);
      const elements = [...converted.elements, ...(svgText ? paragraphsOf(svgText) : [])].map((element) => ({
        ...element,
        chapter,
      }));
      const chapterText = plainTextOf(elements);
      if (text && chapterText) text += '\n\n';
      const title = toc.find((entry) => entry.chapter === chapter)?.title ?? converted.title;
      chapters.push({
        chapter,
        ...(title ? { title } : {}),
        href,
        offset: text.length,
        length: chapterText.length,
        wordCount: countWords(chapterText),
      });
      text += chapterText;
      for (const element of elements) {
        const image = element.image !== undefined ? resolveInBook(href, element.image) : undefined;
        const { image: _src, ...rest } = element;
        if (image) figures.push({ ...rest, image });
        segments.push(image ? figures.at(-1)! : rest);
      }
      if (options.extractImages) for (const image of imagesIn(html, href)) imageRefs.push({ href: image, chapter });
      options.onProgress?.(Math.round((chapter / spine.length) * (options.extractImages ? 70 : 95)));
    }

    const { images, fileOf } = options.extractImages
      ? await extractBookImages(book, archive, imageRefs, options.outputDir)
      : { images: [], fileOf: new Map<string, string>() };
    for (const figure of figures) {
      const file = fileOf.get(figure.image!);
      if (file) figure.image = file;
      else delete figure.image;
    }
    options.onProgress?.(95);

    const metadata = book.metadata;
    return {
      text,
      // A figure with neither a caption nor a stored image says nothing.
      segments: segments.filter((segment) => segment.text || segment.image !== undefined),
      images,
      metadata: {
        ...definedStrings({
          title: metadata.title,
          author: metadata.creator,
          language: metadata.language,
          publisher: metadata.publisher,
        }),
        ...(book.version ? { epubVersion: book.version } : {}),
        chapterCount: chapters.length,
        chapters,
        toc,
        // Said, not left silent: a book of pictures, or one laid out in a way no reader here understands.
        ...(text.length === 0 ? { textless: true } : {}),
      },
    };
  } finally {
    archive.close();
  }
};

function parseBook(file: string, archive: ZipArchive): Promise<CheckedEPub> {
  return new Promise((resolve, reject) => {
    const book = new CheckedEPub(file, archive);
    book.on('error', (err: unknown) =>
      reject(
        err instanceof ExtractError
          ? err
          : new ExtractError('CORRUPT', `The EPUB could not be read: ${(err as Error)?.message ?? err}`),
      ),
    );
    book.on('end', () => resolve(book));
    book.parse();
  });
}

async function refuseDrm(archive: ZipArchive): Promise<void> {
  const name = archive.names.find((n) => n.toLowerCase() === 'meta-inf/encryption.xml');
  if (!name) return;
  const document = parseDocument((await archive.read(name)).toString('utf8'), { xmlMode: true });
  const methods = DomUtils.findAll((e) => e.name.replace(/^.*:/, '') === 'EncryptionMethod', document.children);
  if (methods.some((m) => !FONT_OBFUSCATION.has(m.attribs.Algorithm ?? ''))) {
    throw new ExtractError('ENCRYPTED', 'The EPUB is DRM-protected: its content is encrypted');
  }
}

/** EPUB 3's navigation document when the book has one, else the EPUB 2 NCX that epub2 parsed. */
async function readToc(book: EPub, archive: ZipArchive): Promise<NavEntry[]> {
  const nav = Object.values(book.manifest).find((item) =>
    /(^|\s)nav(\s|$)/.test(String((item as { properties?: string }).properties ?? '')),
  );
  if (nav?.href) {
    const entries = parseNavDocument((await archive.read(bookPath(nav.href))).toString('utf8'), bookPath(nav.href));
    if (entries.length) return entries;
  }
  return book.toc
    .filter((entry) => entry.title)
    .map((entry) => ({
      title: entry.title!.trim(),
      level: entry.level ?? 0,
      ...(entry.href ? { href: bookPath(entry.href) } : {}),
    }));
}

/** Paths of the images a chapter shows (`<img src>`, SVG `<image href>`), in document order. */
function imagesIn(html: string, chapterFile: string): string[] {
  const document = parseDocument(html);
  const found: string[] = [];
  for (const element of DomUtils.findAll((e) => e.name === 'img' || e.name === 'image', document.children)) {
    const reference =
      element.name === 'img' ? element.attribs.src : (element.attribs.href ?? element.attribs['xlink:href']);
    const file = reference ? resolveInBook(chapterFile, reference) : undefined;
    if (file) found.push(file);
  }
  return found;
}

/** Images in reading order with the chapter that first shows them, then any the chapters never show (a cover). */
async function extractBookImages(
  book: EPub,
  archive: ZipArchive,
  refs: { href: string; chapter: number }[],
  outputDir: string,
): Promise<{ images: ExtractedImage[]; fileOf: Map<string, string> }> {
  const manifestImages = new Map<string, ManifestItem>();
  for (const item of book.listImage()) {
    if (item.href && item.mediaType !== 'image/svg+xml') manifestImages.set(bookPath(item.href), item);
  }
  const ordered: { href: string; chapter?: number }[] = [];
  const seen = new Set<string>();
  for (const candidate of [...refs, ...[...manifestImages.keys()].map((href) => ({ href }))]) {
    if (!manifestImages.has(candidate.href) || seen.has(candidate.href)) continue;
    seen.add(candidate.href);
    ordered.push(candidate);
  }

  const images: ExtractedImage[] = [];
  const fileOf = new Map<string, string>();
  for (const { href, chapter } of ordered) {
    if (images.length >= MAX_EXTRACTED_IMAGES) break;
    const data = await archive.read(href).catch(() => undefined);
    if (!data) continue;
    const file = `${chapter ? `chapter-${chapter}` : 'book'}-${images.length + 1}.webp`;
    const output = await saveAsWebp(data, path.join(outputDir, file));
    if (!output) continue;
    fileOf.set(href, file);
    images.push({
      file,
      role: 'extracted',
      ...(chapter ? { chapter } : {}),
      width: output.width,
      height: output.height,
      format: 'webp',
    });
  }
  return { images, fileOf };
}

function definedStrings(values: Record<string, unknown>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    // epub2 stringifies elements it cannot read as "[object Object]".
    if (typeof value === 'string' && value.trim() && value !== '[object Object]') picked[key] = value.trim();
  }
  return picked;
}

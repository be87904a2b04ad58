import zlib from 'node:zlib';
import JSZip from 'jszip';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';

/** Draws a PDF with pdfkit and collects its bytes. */
export function renderPdf(
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, ...options });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/**
 * A real PDF with one page per entry, each page carrying that text. A `userPassword` is needed to open it;
 * an `ownerPassword` alone encrypts it but lets anyone read it.
 */
export function makePdf(
  pages: string[],
  info: { title?: string; author?: string; userPassword?: string; ownerPassword?: string } = {},
): Promise<Buffer> {
  const meta: Record<string, string> = {};
  if (info.title) meta.Title = info.title;
  if (info.author) meta.Author = info.author;
  const { userPassword, ownerPassword } = info;
  const encryption =
    userPassword || ownerPassword
      ? { userPassword, ownerPassword: ownerPassword ?? `${userPassword}-owner`, pdfVersion: '1.7' as const }
      : {};
  return renderPdf({ info: meta, ...encryption }, (doc) => {
    for (const text of pages) {
      doc.addPage();
      doc.fontSize(14).text(text);
    }
  });
}

/**
 * A small PDF whose pages each hold a `edge` x `edge` picture: cheap to store, seconds of work per page
 * to extract (about 7 s per 6000 px page here), so tests can catch a worker mid-extraction.
 */
export async function imageHeavyPdf(pages: number, edge = 6000): Promise<Buffer> {
  const png = await sharp({ create: { width: edge, height: edge, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return renderPdf({}, (doc) => {
    for (let i = 0; i < pages; i++) {
      doc.addPage();
      doc.text(`Page ${i + 1}`);
      doc.image(png, 50, 80, { width: 400 });
    }
  });
}

/** A PDF with pictures on chosen pages: `{page: 2, width: 300, height: 200}` puts that picture on page 2. */
export async function pdfWithPictures(
  pageCount: number,
  pictures: { page: number; width: number; height: number }[],
): Promise<Buffer> {
  const rendered = await Promise.all(
    pictures.map((p) =>
      sharp({ create: { width: p.width, height: p.height, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer(),
    ),
  );
  return renderPdf({}, (doc) => {
    for (let page = 1; page <= pageCount; page++) {
      doc.addPage();
      doc.text(`Page ${page}`);
      pictures.forEach((p, i) => {
        if (p.page === page) doc.image(rendered[i]!, 50, 100 + i * 10, { width: Math.min(p.width, 400) });
      });
    }
  });
}

export interface EpubChapter {
  title: string;
  paragraphs: string[];
}

export interface EpubOptions {
  title?: string;
  author?: string;
  language?: string;
  /** A picture shown in this chapter (1-based), plus a 16 px icon that is decoration. */
  pictureInChapter?: number;
}

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">` +
  `<head><title>${title}</title><link rel="stylesheet" href="../style.css"/></head><body>${body}</body></html>`;

/**
 * An EPUB 3 whose chapters say what they are given, in that order. The manifest lists them backwards and
 * their file names do not sort in reading order, so only the spine gives the order.
 */
export async function makeEpub(chapters: EpubChapter[], options: EpubOptions = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
      '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  );
  const files = chapters.map((_, i) => `text/${String.fromCharCode(122 - i)}-part.xhtml`);
  chapters.forEach((chapter, i) => {
    const picture =
      options.pictureInChapter === i + 1
        ? '<p><img src="../images/icon.png" alt="icon"/></p><figure><img src="../images/figure%20one.png" alt="A figure"/></figure>'
        : '';
    const body = `<section epub:type="chapter"><h1>${chapter.title}</h1>${chapter.paragraphs.map((p) => `<p>${p}</p>`).join('')}${picture}</section>`;
    zip.file(`OEBPS/${files[i]}`, xhtml(chapter.title, body));
  });
  const navItems = chapters.map((c, i) => `<li><a href="${files[i]}">${c.title}</a></li>`).join('');
  zip.file(
    'OEBPS/nav.xhtml',
    xhtml('Contents', `<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>${navItems}</ol></nav>`),
  );
  zip.file('OEBPS/style.css', 'body { font-family: serif; }');
  const images: string[] = [];
  if (options.pictureInChapter) {
    const figure = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#cc3333' } })
      .png()
      .toBuffer();
    const icon = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    zip.file('OEBPS/images/figure one.png', figure);
    zip.file('OEBPS/images/icon.png', icon);
    images.push(
      '<item id="figure" href="images/figure%20one.png" media-type="image/png"/>',
      '<item id="icon" href="images/icon.png" media-type="image/png"/>',
    );
  }
  const manifest = chapters
    .map((_, i) => `<item id="c${i + 1}" href="${files[i]}" media-type="application/xhtml+xml"/>`)
    .reverse()
    .join('');
  const spine = chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join('');
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">` +
      `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:0f6c3a52-2d0a-4f3e-9b8e-5a1f1c0c7e11</dc:identifier>` +
      `<dc:title>${options.title ?? 'Untitled'}</dc:title><dc:creator>${options.author ?? 'Anonymous'}</dc:creator>` +
      `<dc:language>${options.language ?? 'en'}</dc:language><meta property="dcterms:modified">2025-01-01T00:00:00Z</meta></metadata>` +
      `<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>` +
      `<item id="css" href="style.css" media-type="text/css"/>${manifest}${images.join('')}</manifest>` +
      `<spine>${spine}</spine></package>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A zip that starts like an EPUB and inflates one entry of `inflatedMb` zero bytes from a few kilobytes. */
export async function makeZipBomb(inflatedMb = 64): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file('OEBPS/bomb.xhtml', Buffer.alloc(inflatedMb * 1024 * 1024));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A PNG showing the given lines in black on white, for OCR. */
export function makeTextImage(lines: string[], options: { width?: number; fontSize?: number } = {}): Promise<Buffer> {
  const fontSize = options.fontSize ?? 48;
  const width = options.width ?? 1000;
  const height = fontSize * 2 * (lines.length + 1);
  const text = lines
    .map(
      (line, i) =>
        `<text x="40" y="${fontSize * 2 * (i + 1)}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#000">${line}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A valid PNG of a few hundred bytes whose header declares `edge` x `edge` pixels: a decompression bomb. */
export function makeImageBomb(edge = 30_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(edge, 0);
  header.writeUInt32BE(edge, 4);
  header[8] = 8; // bit depth; colour type 0 (grey), no interlace
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(edge + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A decompression bomb: one page whose FlateDecode content stream (under a megabyte for 300 MB) inflates to
 * `inflatedMb` of drawing operators, which any reader must inflate and parse to find the page's text.
 */
export function contentBombPdf(inflatedMb: number): Buffer {
  const operator = Buffer.from('0 0 m 100 100 l S\n');
  const raw = Buffer.alloc(inflatedMb * 1024 * 1024, ' ');
  for (let at = 0; at + operator.length <= raw.length; at += operator.length) operator.copy(raw, at);
  const content = zlib.deflateSync(raw, { level: 9 });
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
  ];
  const parts = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  for (const [index, body] of objects.entries()) {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  }
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

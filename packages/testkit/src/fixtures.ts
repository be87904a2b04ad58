import PDFDocument from 'pdfkit';

/** A real PDF with one page per entry, each page carrying that text. */
export function makePdf(pages: string[], info: { title?: string; author?: string } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const meta: Record<string, string> = {};
    if (info.title) meta.Title = info.title;
    if (info.author) meta.Author = info.author;
    const doc = new PDFDocument({ autoFirstPage: false, info: meta });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const text of pages) {
      doc.addPage();
      doc.fontSize(14).text(text);
    }
    doc.end();
  });
}

/**
 * A small PDF whose pages each hold a `edge` x `edge` picture: cheap to store, seconds of work per page
 * to extract (about 7 s per 6000 px page here), so tests can catch a worker mid-extraction.
 */
export async function imageHeavyPdf(pages: number, edge = 6000): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const png = await sharp({ create: { width: edge, height: edge, channels: 3, background: '#ffffff' } }).png({ compressionLevel: 9 }).toBuffer();
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (let i = 0; i < pages; i++) {
      doc.addPage();
      doc.text(`Page ${i + 1}`);
      doc.image(png, 50, 80, { width: 400 });
    }
    doc.end();
  });
}

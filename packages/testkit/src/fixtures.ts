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

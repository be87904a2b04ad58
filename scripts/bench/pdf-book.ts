import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you ' +
  'were her she there been one all we their has would when if so no will what about more up out them some could ' +
  'cell energy membrane protein structure function process system water light temperature pressure force motion ' +
  'equation variable result evidence experiment theory model observation measurement analysis population growth ' +
  'history century empire revolution trade language culture society economy government republic treaty border ' +
  'student teacher lesson chapter example exercise question answer reading writing number fraction geometry angle ' +
  'triangle circle surface volume density mass velocity acceleration electron nucleus molecule reaction solution ' +
  'carefully usually however therefore although because between during without within against through important'
).split(' ');

const SERIF = '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf';
const SANS_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** A deterministic pseudo-random sequence, so every run extracts the same book. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number): string {
  const length = 6 + Math.floor(next() * 18);
  const words = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  if (next() < 0.15) words.push(String(Math.floor(next() * 2000)));
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}${next() < 0.1 ? '?' : '.'}`;
}

/**
 * A textbook-like PDF of `pages` pages as word processors write them: embedded subset fonts (DejaVu, when
 * installed; the standard Times and Helvetica otherwise), a chapter heading every 12 pages, justified
 * paragraphs, a running header and a page number: about 550 words a page.
 */
export function makeBookPdf(pages: number): Promise<{ pdf: Buffer; fonts: string }> {
  const embedded = existsSync(SERIF) && existsSync(SANS_BOLD);
  const body = embedded ? SERIF : 'Times-Roman';
  const heading = embedded ? SANS_BOLD : 'Helvetica-Bold';
  const next = random(20261122);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: 72, bottom: 72, left: 64, right: 64 },
      autoFirstPage: false,
      info: { Title: 'Benchmark textbook' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () =>
      resolve({
        pdf: Buffer.concat(chunks),
        fonts: embedded ? 'DejaVu (embedded subsets)' : 'standard Times/Helvetica',
      }),
    );
    doc.on('error', reject);
    for (let page = 1; page <= pages; page++) {
      doc.addPage();
      if (page % 12 === 1)
        doc
          .font(heading)
          .fontSize(18)
          .text(`Chapter ${Math.ceil(page / 12)}: ${sentence(next).slice(0, 40)}`)
          .moveDown();
      doc.font(body).fontSize(10.5);
      // Paragraphs until the page is full; a set height keeps pdfkit from flowing onto pages of its own.
      while (doc.y < doc.page.height - 160) {
        const paragraph = Array.from({ length: 3 + Math.floor(next() * 4) }, () => sentence(next)).join(' ');
        doc.text(paragraph, { align: 'justify', height: doc.page.height - 72 - doc.y });
        doc.moveDown(0.6);
      }
      // Header and page number sit in the margins, where pdfkit would otherwise start a new page.
      doc.page.margins.bottom = 0;
      doc
        .font(heading)
        .fontSize(8)
        .text(`Benchmark textbook, chapter ${Math.ceil(page / 12)}`, 64, 40, { lineBreak: false });
      doc.text(String(page), 64, doc.page.height - 50, {
        width: doc.page.width - 128,
        align: 'center',
        lineBreak: false,
      });
    }
    doc.end();
  });
}

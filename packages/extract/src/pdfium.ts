import { PDFiumLibrary, type PDFiumDocument } from '@hyzyla/pdfium';
import type { Box } from './document.ts';
import {
  hiddenLines,
  keepingTextApart,
  placeOf,
  ruledTables,
  rulesAcross,
  type CellPlace,
  type Fill,
  type Glyph,
} from './pdf-grids.ts';
import type { TextRun } from './pdf-aligned-tables.ts';
import { isKashida, isSpaceBeforeMark, lamAlefInOrder } from './pdf-ligatures.ts';
import { runEdgesOf, runsOfLine, type TextRect } from './pdf-line-runs.ts';
import { tagsByMarkedContent, type LineTag, type StructNode } from './pdf-tags.ts';
import { RIGHT_TO_LEFT } from './words.ts';

/** The PDFium functions used here, as the WebAssembly build exports them (the wrapper types only some). */
interface PdfiumModule {
  HEAPU8: Uint8Array;
  wasmExports: { malloc(size: number): number; free(ptr: number): void };
  _FPDF_LoadPage(doc: number, index: number): number;
  _FPDF_ClosePage(page: number): void;
  _FPDF_GetPageWidthF(page: number): number;
  _FPDF_GetPageHeightF(page: number): number;
  _FPDF_GetMetaText(doc: number, tag: number, buffer: number, length: number): number;
  _FPDF_GetFileVersion(doc: number, version: number): number;
  _FPDF_GetSecurityHandlerRevision(doc: number): number;
  _FPDFText_LoadPage(page: number): number;
  _FPDFText_ClosePage(textPage: number): void;
  _FPDFText_CountChars(textPage: number): number;
  _FPDFText_GetText(textPage: number, start: number, count: number, buffer: number): number;
  _FPDFText_GetUnicode(textPage: number, index: number): number;
  _FPDFText_CountRects(textPage: number, start: number, count: number): number;
  _FPDFText_GetRect(textPage: number, index: number, left: number, top: number, right: number, bottom: number): number;
  _FPDFText_GetCharBox(
    textPage: number,
    index: number,
    left: number,
    right: number,
    bottom: number,
    top: number,
  ): number;
  _FPDFText_GetFontSize(textPage: number, index: number): number;
  _FPDFText_HasUnicodeMapError(textPage: number, index: number): number;
  _FPDFText_IsGenerated(textPage: number, index: number): number;
  _FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  _FPDFText_GetFontWeight(textPage: number, index: number): number;
  _FPDFText_GetFontInfo(textPage: number, index: number, buffer: number, length: number, flags: number): number;
  _FPDFText_GetTextObject(textPage: number, index: number): number;
  _FPDFTextObj_GetFont(textObject: number): number;
  _FPDFFont_GetItalicAngle(font: number, angle: number): number;
  _FPDFPageObj_GetMarkedContentID(object: number): number;
  _FPDFCatalog_IsTagged(doc: number): number;
  _FPDF_StructTree_GetForPage(page: number): number;
  _FPDF_StructTree_Close(tree: number): void;
  _FPDF_StructTree_CountChildren(tree: number): number;
  _FPDF_StructTree_GetChildAtIndex(tree: number, index: number): number;
  _FPDF_StructElement_GetType(element: number, buffer: number, length: number): number;
  _FPDF_StructElement_CountChildren(element: number): number;
  _FPDF_StructElement_GetChildAtIndex(element: number, index: number): number;
  _FPDF_StructElement_GetMarkedContentIdCount(element: number): number;
  _FPDF_StructElement_GetMarkedContentIdAtIndex(element: number, index: number): number;
  _FPDF_StructElement_GetAttributeCount(element: number): number;
  _FPDF_StructElement_GetAttributeAtIndex(element: number, index: number): number;
  _FPDF_StructElement_Attr_GetValue(attribute: number, name: number): number;
  _FPDF_StructElement_Attr_GetNumberValue(value: number, out: number): number;
  _FPDFPage_CountObjects(page: number): number;
  _FPDFPageObj_GetBounds(object: number, left: number, bottom: number, right: number, top: number): number;
  _FPDFPath_CountSegments(path: number): number;
  _FPDFPath_GetPathSegment(path: number, index: number): number;
  _FPDFPathSegment_GetType(segment: number): number;
  _FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  _FPDFPage_GetObject(page: number, index: number): number;
  _FPDFPageObj_GetType(object: number): number;
  _FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  _FPDFPageObj_GetFillColor(object: number, r: number, g: number, b: number, a: number): number;
  _FPDFPageObj_HasTransparency(object: number): number;
  _FPDFImageObj_GetImagePixelSize(object: number, width: number, height: number): number;
  _FPDFImageObj_GetBitmap(object: number): number;
  _FPDFBitmap_CreateEx(width: number, height: number, format: number, buffer: number, stride: number): number;
  _FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): void;
  _FPDFBitmap_GetBuffer(bitmap: number): number;
  _FPDFBitmap_GetWidth(bitmap: number): number;
  _FPDFBitmap_GetHeight(bitmap: number): number;
  _FPDFBitmap_GetStride(bitmap: number): number;
  _FPDFBitmap_GetFormat(bitmap: number): number;
  _FPDFBitmap_Destroy(bitmap: number): void;
  _FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    x: number,
    y: number,
    width: number,
    height: number,
    rotate: number,
    flags: number,
  ): void;
}

const PATH_OBJECT = 2;
const BEZIER_SEGMENT = 1;
const IMAGE_OBJECT = 3;
/** Bounds on a page's structure tree read: no real page nests 64 deep or holds 50,000 elements. */
const MAX_STRUCT_DEPTH = 64;
const MAX_STRUCT_ELEMENTS = 50_000;
/** A cell spans at most this many rows or columns (a file may say a million). */
const MAX_SPAN = 1000;
const BITMAP_BGRA = 4;
/** FPDF_ANNOT | FPDF_PRINTING: what a reader shows when printing, annotations included. */
const RENDER_FLAGS = 0x01 | 0x800;
/** Bytes per pixel of PDFium's bitmap formats: Gray, BGR, BGRx, BGRA. */
const FORMAT_CHANNELS: Record<number, number> = { 1: 1, 2: 3, 3: 4, 4: 4 };

/** A decoded bitmap: `channels` 1 is gray, 3 is BGR, 4 is BGRx/BGRA (PDFium's byte order), rows packed. */
export interface PdfiumBitmap {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Buffer;
}

/** One line of a page's text layer as PDFium groups it, with what the layout rules read. */
export interface PdfiumLine {
  text: string;
  /** `[x0, y0, x1, y1]` in points from the page's top left. */
  box: [number, number, number, number];
  /** The font's em size on the page, in points (the size set times the text matrix's scale). */
  size: number;
  bold: boolean;
  /** The line is set in italics (or an oblique face), in its middle and at one end. */
  italic?: boolean;
  /** The font of the line's middle character, without a subset's prefix ("ABCDEF+"); '' when it has none. */
  font: string;
  /** The line is set in a fixed-pitch font, start, middle and end (code). */
  fixedPitch?: boolean;
  /**
   * Where the line's text stands apart, left to right: the left edge of each run after a gap wider than twice
   * the run's height (a table row's cells, a label and its value, a number and its title after a tab).
   */
  gaps: number[];
  /**
   * The line's text in runs that stand apart by more than a word space (a table's cells set close, which the
   * file writes as text objects of their own), left to right; only where there are two or more.
   */
  runs?: TextRun[];
  /** In a tagged PDF, the structure element the line's text belongs to (a line is cut where that changes). */
  tag?: LineTag;
  /** In an untagged PDF, the cell of a ruled table the line's text stands in (a line is cut at the rules). */
  cell?: CellPlace;
}

/** What a piece of a line belongs to: a structure element, or a ruled table's cell. */
type Piece = LineTag | CellPlace;

/** A line without gaps (shared, so that every line has the same shape for the layout code that reads them). */
const NO_GAPS: number[] = [];

export interface PdfiumPageLines {
  width: number;
  height: number;
  lines: PdfiumLine[];
  /** In an untagged PDF, the rules drawn across the page (thin horizontal path objects), where it has any. */
  rules?: Box[];
}

/** A line's rectangles standing over this many times the least one's height hold text on several lines. */
const LINES_APART = 1.6;
/** A character whose middle stands this many heights under the one before it is on the next line. */
const NEXT_LINE = 0.6;
/** A combining mark (an accent, a vowel sign): it stands above or below its letter. */
const MARK = /\p{M}/u;
/**
 * Fixed-pitch fonts, by name: a font descriptor's FixedPitch flag is set by every CJK font and by some fonts of
 * ordinary text, so it says too much.
 */
const FIXED_PITCH_NAME = /mono|courier|consol|typewriter|cmtt|menlo|inconsolata|lucida ?console|sfmono/i;
const isFixedPitch = (font: { name: string }) => FIXED_PITCH_NAME.test(font.name);
/** Bold by its name: Helvetica-Bold, MyriadPro-Bd, TeX's CMBX12 and SFBX1000, Calibri,Bold. */
const BOLD_NAME = /bold|black|heavy|demi|bd(it)?$|[-,]bd|bx\d|cmb\d/i;
/** A FontDescriptor flag: the font is drawn bold whatever its name. */
const FORCE_BOLD = 0x40000;
/** A FontDescriptor flag: the font's glyphs slant (italic or oblique). */
const ITALIC_FLAG = 0x40;
/** Italic by its name: Times-Italic, Helvetica-Oblique, Arial,BoldItalic, TeX's CMTI10 and CMSL10. */
const ITALIC_NAME = /italic|oblique|cmti\d|cmsl\d|cmbxti\d|cmbxsl\d/i;
/** Italic by a short name's capital: URW's Palladio-Ital and NimbusRomNo9L-ReguItal, MinionPro-It (not "Digital"). */
const ITAL_NAME = /Ital|[-,](Bold|Semibold)?It$/;

export type DocumentInfo = Partial<Record<'title' | 'author' | 'subject' | 'creator' | 'producer', string>>;

interface Engine {
  library: PDFiumLibrary;
  module: PdfiumModule;
}

let engine: Promise<Engine> | undefined;

/** Compiles and starts PDFium once per process (about 70 ms); every document after that shares it. */
export function loadPdfium(): Promise<Engine> {
  engine ??= PDFiumLibrary.init().then((library) => ({
    library,
    // The wrapper keeps the module private and leaves out what is needed here (page closing, metadata, bitmaps).
    module: withDirectCalls((library as unknown as { module: PdfiumModule }).module),
  }));
  return engine;
}

/**
 * The module with its functions called straight in WebAssembly. The build's own `_FPDF...` functions check
 * each call and write out their three assertions' messages every time, failing or not: 4 KB of garbage for
 * each line a page's text is cut into, 150 MB for a 600-page book, which kept the young generation collecting
 * and moved every line kept for the layout into the old one.
 */
function withDirectCalls(module: PdfiumModule): PdfiumModule {
  const direct = Object.create(module) as PdfiumModule;
  for (const [name, exported] of Object.entries(module.wasmExports))
    if (typeof exported === 'function' && `_${name}` in module)
      Object.defineProperty(direct, `_${name}`, { value: exported });
  return direct;
}

/**
 * After WebAssembly aborts (a file that drives PDFium into a fatal error), the module's memory is undefined:
 * the next document gets a fresh one.
 */
function discardEngine(): void {
  engine = undefined;
}

/** A WebAssembly trap or an Emscripten abort: PDFium hit a fatal error inside the module. */
export function isWasmAbort(err: unknown): boolean {
  return (err as Error)?.name === 'RuntimeError';
}

/** Why PDFium would not open a file (the wrapper's message: format, password, security handler). */
export class PdfiumRefusal extends Error {
  override name = 'PdfiumRefusal';
}

/** One PDF opened in PDFium. Pages are loaded one at a time and closed after use, so a long book stays small. */
export class PdfiumPdf {
  private constructor(
    private readonly engine: Engine,
    private readonly document: PDFiumDocument,
    private readonly handle: number,
  ) {}

  static async open(bytes: Uint8Array): Promise<PdfiumPdf> {
    const engine = await loadPdfium();
    let document: PDFiumDocument;
    try {
      document = await engine.library.loadDocument(bytes);
    } catch (err) {
      if (isWasmAbort(err)) discardEngine();
      throw new PdfiumRefusal((err as Error).message);
    }
    return new PdfiumPdf(engine, document, (document as unknown as { documentIdx: number }).documentIdx);
  }

  get pageCount(): number {
    return this.document.getPageCount();
  }

  /** Runs `use` on a loaded page and closes it; a WebAssembly abort discards the engine for the next document. */
  private withPage<T>(index: number, use: (page: number) => T): T {
    const m = this.engine.module;
    try {
      const page = m._FPDF_LoadPage(this.handle, index);
      if (!page) throw new PdfiumRefusal(`page ${index + 1} could not be loaded`);
      try {
        return use(page);
      } finally {
        m._FPDF_ClosePage(page);
      }
    } catch (err) {
      if (isWasmAbort(err)) discardEngine();
      throw err;
    }
  }

  /** The page's text layer in reading order as PDFium lays it out (lines end with CRLF). Zero-based `index`. */
  pageText(index: number): string {
    const m = this.engine.module;
    return this.withPage(index, (page) => {
      const textPage = m._FPDFText_LoadPage(page);
      if (!textPage) return '';
      try {
        const count = m._FPDFText_CountChars(textPage);
        if (count <= 0) return '';
        const buffer = m.wasmExports.malloc((count + 1) * 2);
        try {
          const written = m._FPDFText_GetText(textPage, 0, count, buffer);
          return written > 1 ? utf16(m, buffer, (written - 1) * 2) : '';
        } finally {
          m.wasmExports.free(buffer);
        }
      } finally {
        m._FPDFText_ClosePage(textPage);
      }
    });
  }

  /**
   * The page's text layer cut into lines (where PDFium breaks them, and after its mark for a hyphen at a line's
   * end, U+FFFE, which it writes without a break), each with its box, font size and weight. Zero-based `index`.
   */
  pageLines(index: number): PdfiumPageLines {
    const m = this.engine.module;
    return this.withPage(index, (page) => {
      const width = m._FPDF_GetPageWidthF(page);
      const height = m._FPDF_GetPageHeightF(page);
      const lines: PdfiumLine[] = [];
      const textPage = m._FPDFText_LoadPage(page);
      if (!textPage) return { width, height, lines };
      const tags = this.tagged ? this.pageTags(page) : undefined;
      // Four doubles for a rectangle, six floats for a character's matrix, the font's flags, and its name.
      const scratch = m.wasmExports.malloc(32 + 24 + 4 + 128);
      try {
        const count = m._FPDFText_CountChars(textPage);
        if (count <= 0) return { width, height, lines };
        let text = this.textOf(textPage, count);
        // One UTF-16 unit per character is what maps text to character indices; a page with characters past
        // the BMP is read character by character.
        if (text.length !== count)
          text = Array.from({ length: count }, (_, i) =>
            String.fromCharCode(m._FPDFText_GetUnicode(textPage, i) & 0xffff),
          ).join('');
        // Views of the WebAssembly memory, made again only when it has grown (a page's lines make many reads).
        let view = new DataView(m.HEAPU8.buffer);
        let bytes = Buffer.from(m.HEAPU8.buffer);
        const heap = () => {
          if (view.buffer !== m.HEAPU8.buffer) {
            view = new DataView(m.HEAPU8.buffer);
            bytes = Buffer.from(m.HEAPU8.buffer);
          }
          return view;
        };
        const charBox = (i: number, at: number) => {
          if (!m._FPDFText_GetCharBox(textPage, i, at, at + 8, at + 16, at + 24)) return undefined;
          const memory = heap();
          return [0, 8, 16, 24].map((offset) => memory.getFloat64(at + offset, true));
        };
        text = lamAlefInOrder(text, (i) => {
          const [first, second] = [charBox(i, scratch), charBox(i + 1, scratch)];
          return first !== undefined && second !== undefined && first.every((value, k) => value === second[k]);
        });
        // Kashidas (`isKashida`) and the spaces of marks' spacing forms (`isSpaceBeforeMark`) are left out of the
        // lines' text; `text` itself keeps PDFium's one character per index, by which boxes, fonts and tags are read.
        const leftOut = new Set<number>();
        for (let i = 1; i + 1 < count; i++)
          if (
            isSpaceBeforeMark(text, i, (at) => {
              if (m._FPDFText_IsGenerated(textPage, at) === 1) return false;
              const box = charBox(at, scratch);
              return box !== undefined && box[1]! - box[0]! < 0.01;
            }) ||
            isKashida(
              text,
              i,
              (at) => m._FPDFText_HasUnicodeMapError(textPage, at) === 1,
              (at) => charBox(at, scratch) as [number, number, number, number] | undefined,
            )
          )
            leftOut.add(i);
        /** The text from `start` to `end`, what is left out left out. */
        const textBetween = (start: number, end: number) => {
          if (leftOut.size === 0) return text.slice(start, end);
          let kept = '';
          for (let i = start; i < end; i++) if (!leftOut.has(i)) kept += text[i];
          return kept;
        };
        // The size set (often 1) scaled by the text's matrix: the em size on the page, whatever the font's
        // ascent and descent (a character's loose box grows with them, so a code font read as bigger).
        const sizeOf = (i: number) => {
          const matrix = scratch + 32;
          const size = m._FPDFText_GetFontSize(textPage, i);
          if (!m._FPDFText_GetMatrix(textPage, i, matrix)) return size;
          const at = heap();
          const a = at.getFloat32(matrix, true);
          const b = at.getFloat32(matrix + 4, true);
          const c = at.getFloat32(matrix + 8, true);
          const d = at.getFloat32(matrix + 12, true);
          return size * Math.sqrt(Math.abs(a * d - b * c));
        };
        const fontOf = (i: number) => {
          const flags = scratch + 56;
          const name = scratch + 60;
          const length = m._FPDFText_GetFontInfo(textPage, i, name, 128, flags);
          const flagBits = heap().getInt32(flags, true);
          const font = length > 1 ? bytes.toString('latin1', name, name + Math.min(length, 128) - 1) : '';
          return { flags: flagBits, name: font.replace(/^[A-Z]{6}\+/, '') };
        };
        // Italic by the descriptor's flag or the font's name, else by its slant (TeX's fonts set only the angle).
        const isItalic = (i: number, font = fontOf(i)) => {
          if ((font.flags & ITALIC_FLAG) !== 0 || ITALIC_NAME.test(font.name) || ITAL_NAME.test(font.name)) return true;
          const object = m._FPDFText_GetTextObject(textPage, i);
          const handle = object ? m._FPDFTextObj_GetFont(object) : 0;
          return (
            handle !== 0 && m._FPDFFont_GetItalicAngle(handle, scratch) !== 0 && heap().getInt32(scratch, true) !== 0
          );
        };
        const isBold = (i: number, font = fontOf(i)) =>
          m._FPDFText_GetFontWeight(textPage, i) >= 600 || (font.flags & FORCE_BOLD) !== 0 || BOLD_NAME.test(font.name);
        /**
         * The page's characters with their boxes, blanks left undefined, each with the number of its line and,
         * when `order` is given (the page's objects in painting order), its text object's place in it.
         */
        const glyphsOf = (total: number, order?: Map<number, number>) => {
          const found: (Glyph | undefined)[] = [];
          let line = 0;
          for (let i = 0; i < total; i++) {
            const code = text.charCodeAt(i);
            if (code === 0x0d || code === 0x0a) line++;
            const box = code > 0x20 && code !== 0xfffe ? charBox(i, scratch) : undefined;
            if (!box) {
              found.push(undefined);
              continue;
            }
            const [left, right, bottom, top] = box as [number, number, number, number];
            const glyph: Glyph = {
              left,
              right,
              x: (left + right) / 2,
              y: height - (bottom + top) / 2,
              size: sizeOf(i),
              line,
            };
            const painted = order?.get(m._FPDFText_GetTextObject(textPage, i));
            found.push(painted === undefined ? glyph : { ...glyph, order: painted });
          }
          return found;
        };
        // The structure element a character's text object is marked as part of: null for text outside the
        // tree (an artifact: a running header, a page number), undefined for a character PDFium made (a space).
        let lastObject = 0;
        let lastTag: LineTag | null = null;
        const tagAt = (i: number): LineTag | null | undefined => {
          const object = m._FPDFText_GetTextObject(textPage, i);
          if (!object) return undefined;
          // A text object's characters come one after another: its mark is looked up once.
          if (object !== lastObject) {
            lastObject = object;
            lastTag = tags!.get(m._FPDFPageObj_GetMarkedContentID(object)) ?? null;
          }
          return lastTag;
        };
        // Where a character's text belongs beyond its line, where the page says: its structure element in a
        // tagged file, else the cell of a ruled table it stands in.
        const { boxes: paths, fills } = tags ? { boxes: [], fills: [] } : this.pathsOf(page, height);
        let tables = paths.length > 0 ? ruledTables(paths, { width, height }) : [];
        const across = paths.length > 0 ? rulesAcross(paths) : [];
        const glyphs =
          tables.length > 0 ? glyphsOf(count, fills.length > 0 ? this.paintingOrder(page) : undefined) : [];
        const seen = glyphs.filter((glyph) => glyph !== undefined);
        const hidden = hiddenLines(seen, fills);
        if (tables.length > 0) tables = keepingTextApart(tables, seen, hidden);
        // (A line hidden under the table's fills is in none of its cells.)
        const cellAt = (i: number): CellPlace | null | undefined =>
          glyphs[i] ? (hidden.has(glyphs[i].line) ? null : (placeOf(tables, glyphs[i]) ?? null)) : undefined;
        const pieceAt = tags ? tagAt : tables.length > 0 ? cellAt : undefined;
        const addLine = (start: number, end: number) => {
          if (!pieceAt) return addPiece(start, end);
          let from = start;
          let current: Piece | null | undefined;
          for (let i = start; i < end; i++) {
            const piece = pieceAt(i);
            if (piece === undefined || piece === current) continue;
            if (current !== undefined) {
              addPiece(from, i, current);
              from = i;
            }
            current = piece;
          }
          addPiece(from, end, current);
        };
        /**
         * Where a line PDFium gives as one goes on to the next line: before each character that stands a line
         * lower and back at the start of a line (left, or right in a right-to-left script). Text set on several
         * lines without line ends (a slide's list as LibreOffice prints it) comes as one line. A superscript, a
         * drop cap, a rotated line and a table's cells centred in their rows give no cut.
         */
        const nextLineCuts = (start: number, end: number): number[] => {
          const cuts: number[] = [];
          let previous: number[] | undefined;
          for (let i = start; i < end; i++) {
            const code = text.charCodeAt(i);
            // (An accent or a vowel mark stands above or below its letter.)
            const box = code > 0x20 && code !== 0xfffe && !MARK.test(text[i]!) ? charBox(i, scratch) : undefined;
            if (!box) continue;
            const [left, , bottom, top] = box as [number, number, number, number];
            if (previous) {
              const [previousLeft, , previousBottom, previousTop] = previous as [number, number, number, number];
              const lineHeight = Math.max(previousTop - previousBottom, top - bottom);
              const lower = (previousBottom + previousTop) / 2 - (bottom + top) / 2 > lineHeight * NEXT_LINE;
              // (A rotated line's letters step down without moving across.)
              const back = RIGHT_TO_LEFT.test(text[i]!) ? left - previousLeft : previousLeft - left;
              if (lower && back > lineHeight) cuts.push(i);
            }
            previous = box;
          }
          return cuts;
        };
        /** The line's text cut into its runs, each character by where its box stands. */
        const runsOf = (start: number, end: number, edges: number[]): TextRun[] => {
          const lefts: (number | undefined)[] = [];
          for (let i = start; i < end; i++) {
            if (leftOut.has(i)) continue;
            const code = text.charCodeAt(i);
            lefts.push(code > 0x20 && code !== 0xfffe ? charBox(i, scratch)?.[0] : undefined);
          }
          return runsOfLine(textBetween(start, end), lefts, edges);
        };
        const addPiece = (start: number, end: number, piece?: Piece | null, cut = false) => {
          const lineText = textBetween(start, end);
          if (!lineText.trim()) return;
          const rects = m._FPDFText_CountRects(textPage, start, end - start);
          let x0 = Infinity;
          let y0 = Infinity;
          let x1 = -Infinity;
          let y1 = -Infinity;
          let gaps: number[] | undefined;
          let previousRight = Infinity;
          /** The least rectangle's height: rectangles standing over more than LINES_APART of it hold several lines. */
          let least = Infinity;
          const lineRects: TextRect[] = [];
          for (let r = 0; r < rects; r++) {
            if (!m._FPDFText_GetRect(textPage, r, scratch, scratch + 8, scratch + 16, scratch + 24)) continue;
            const view = heap();
            const left = view.getFloat64(scratch, true);
            const top = view.getFloat64(scratch + 8, true);
            const right = view.getFloat64(scratch + 16, true);
            const bottom = view.getFloat64(scratch + 24, true);
            x0 = Math.min(x0, left, right);
            x1 = Math.max(x1, left, right);
            y0 = Math.min(y0, height - Math.max(top, bottom));
            y1 = Math.max(y1, height - Math.min(top, bottom));
            const runLeft = Math.min(left, right);
            if (runLeft - previousRight > Math.abs(top - bottom) * 2) (gaps ??= []).push(runLeft);
            previousRight = Math.max(left, right);
            lineRects.push({ left: runLeft, right: previousRight, height: Math.abs(top - bottom) });
            least = Math.min(least, Math.abs(top - bottom));
          }
          if (!cut && lineRects.length >= 2 && y1 - y0 > least * LINES_APART) {
            const cuts = nextLineCuts(start, end);
            if (cuts.length > 0) {
              [start, ...cuts].forEach((from, k) => addPiece(from, cuts[k] ?? end, piece, true));
              return;
            }
          }
          const edges = runEdgesOf(lineRects);
          if (x0 === Infinity) x0 = y0 = x1 = y1 = 0;
          // The font of the line's middle character, and of its first and last: the middle size of the three.
          let first = start;
          while (first < end && text.charCodeAt(first) <= 0x20) first++;
          let last = end - 1;
          while (last > first && text.charCodeAt(last) <= 0x20) last--;
          // (The middle one that is not blank: a space has no font or weight of its own.)
          let middle = (first + last) >> 1;
          while (middle < last && text.charCodeAt(middle) <= 0x20) middle++;
          const size = middleOf(sizeOf(first), sizeOf(middle), sizeOf(last));
          const font = fontOf(middle);
          const fixedPitch = [first, middle, last].every((i) => isFixedPitch(i === middle ? font : fontOf(i)));
          // Italic in its middle and at one end: a heading's number may stand upright before it.
          const italic = isItalic(middle, font) && (isItalic(first) || isItalic(last));
          lines.push({
            text: lineText,
            box: [x0, y0, x1, y1],
            size,
            // Bold in its middle and at one end: a line, not a word in bold inside it.
            bold: isBold(middle, font) && (isBold(first) || isBold(last)),
            font: font.name,
            ...(italic ? { italic } : {}),
            ...(fixedPitch ? { fixedPitch } : {}),
            gaps: gaps ?? NO_GAPS,
            ...(edges.length >= 4 ? { runs: runsOf(start, end, edges) } : {}),
            ...(piece ? ('block' in piece ? { tag: piece } : { cell: piece }) : {}),
          });
        };
        let start = 0;
        for (let i = 0; i < count; i++) {
          const code = text.charCodeAt(i);
          if (code === 0x0d || code === 0x0a) {
            addLine(start, i);
            start = i + 1;
          } else if (code === 0xfffe) {
            addLine(start, i + 1);
            start = i + 1;
          }
        }
        addLine(start, count);
        return { width, height, lines, ...(across.length > 0 ? { rules: across } : {}) };
      } finally {
        m.wasmExports.free(scratch);
        m._FPDFText_ClosePage(textPage);
      }
    });
  }

  /** The page's objects, each with its place in the painting order. */
  private paintingOrder(page: number): Map<number, number> {
    const m = this.engine.module;
    const order = new Map<number, number>();
    const count = m._FPDFPage_CountObjects(page);
    for (let i = 0; i < count; i++) order.set(m._FPDFPage_GetObject(page, i), i);
    return order;
  }

  /**
   * The boxes of the page's path objects, a rectangle's four sides each a box of its own, and the rectangles
   * filled opaque with their places in the painting order (what they hide lies under them).
   */
  private pathsOf(page: number, height: number): { boxes: Box[]; fills: Fill[] } {
    const m = this.engine.module;
    const bounds = m.wasmExports.malloc(32);
    /** Whether a path is filled with an opaque colour, painted over what lies under it (no blend, no mask). */
    const isOpaqueFill = (object: number) => {
      if (m._FPDFPageObj_HasTransparency(object)) return false;
      if (!m._FPDFPath_GetDrawMode(object, bounds, bounds + 4)) return false;
      if (new DataView(m.HEAPU8.buffer).getInt32(bounds, true) === 0) return false;
      if (!m._FPDFPageObj_GetFillColor(object, bounds, bounds + 4, bounds + 8, bounds + 12)) return false;
      return new DataView(m.HEAPU8.buffer).getUint32(bounds + 12, true) === 255;
    };
    /** Four to six straight segments, each along an axis: a move, three or four lines, and maybe a close. */
    const isRectangle = (object: number) => {
      const segments = m._FPDFPath_CountSegments(object);
      if (segments < 4 || segments > 6) return false;
      let previous: [number, number] | undefined;
      for (let i = 0; i < segments; i++) {
        const segment = m._FPDFPath_GetPathSegment(object, i);
        if (m._FPDFPathSegment_GetType(segment) === BEZIER_SEGMENT) return false;
        if (!m._FPDFPathSegment_GetPoint(segment, bounds, bounds + 4)) return false;
        const view = new DataView(m.HEAPU8.buffer);
        const point: [number, number] = [view.getFloat32(bounds, true), view.getFloat32(bounds + 4, true)];
        // (A diamond's sides run aslant: a flowchart's decision, not a cell.)
        if (previous && Math.abs(point[0] - previous[0]) > 0.5 && Math.abs(point[1] - previous[1]) > 0.5) return false;
        previous = point;
      }
      return true;
    };
    try {
      const boxes: Box[] = [];
      const fills: Fill[] = [];
      const count = m._FPDFPage_CountObjects(page);
      for (let i = 0; i < count; i++) {
        const object = m._FPDFPage_GetObject(page, i);
        if (!object || m._FPDFPageObj_GetType(object) !== PATH_OBJECT) continue;
        if (!m._FPDFPageObj_GetBounds(object, bounds, bounds + 4, bounds + 8, bounds + 12)) continue;
        const view = new DataView(m.HEAPU8.buffer);
        const [left, bottom, right, top] = [0, 4, 8, 12].map((at) => view.getFloat32(bounds + at, true));
        const box: Box = [left!, height - top!, right!, height - bottom!];
        // A rectangle (a cell's border drawn as one path) gives its four sides; any other path its box, which
        // is a rule when it is thin.
        if (isRectangle(object)) {
          const [x0, y0, x1, y1] = box;
          boxes.push([x0, y0, x1, y0], [x0, y1, x1, y1], [x0, y0, x0, y1], [x1, y0, x1, y1]);
          if (isOpaqueFill(object)) fills.push({ box, order: i });
        } else boxes.push(box);
      }
      return { boxes, fills };
    } finally {
      m.wasmExports.free(bounds);
    }
  }

  private taggedDocument: boolean | undefined;

  /** Whether the file says it is tagged (its catalog's `MarkInfo` and a structure tree). */
  get tagged(): boolean {
    this.taggedDocument ??= this.engine.module._FPDFCatalog_IsTagged(this.handle) !== 0;
    return this.taggedDocument;
  }

  /** The page's structure tree as marked-content ids to their blocks; undefined when the page has none. */
  private pageTags(page: number): Map<number, LineTag> | undefined {
    const m = this.engine.module;
    const tree = m._FPDF_StructTree_GetForPage(page);
    if (!tree) return undefined;
    // The role's name, a float, and the two attribute names read as C strings.
    const name = m.wasmExports.malloc(128 + 4 + 16);
    const number = name + 128;
    const rowSpanName = number + 4;
    const colSpanName = rowSpanName + 8;
    m.HEAPU8.set(Buffer.from('RowSpan\0ColSpan\0', 'latin1'), rowSpanName);
    try {
      /** A table cell's span attribute, where it says more than 1. */
      const spanOf = (element: number, attributeName: number) => {
        for (let i = 0; i < m._FPDF_StructElement_GetAttributeCount(element); i++) {
          const attribute = m._FPDF_StructElement_GetAttributeAtIndex(element, i);
          const value = attribute ? m._FPDF_StructElement_Attr_GetValue(attribute, attributeName) : 0;
          if (!value || !m._FPDF_StructElement_Attr_GetNumberValue(value, number)) continue;
          const span = Math.round(new DataView(m.HEAPU8.buffer).getFloat32(number, true));
          return span > 1 ? Math.min(span, MAX_SPAN) : undefined;
        }
        return undefined;
      };
      // A hostile file's tree may nest without end or hold millions of elements: both are bounded.
      let budget = MAX_STRUCT_ELEMENTS;
      const read = (element: number, depth: number): StructNode => {
        const length = m._FPDF_StructElement_GetType(element, name, 128);
        const type = length > 2 ? utf16(m, name, Math.min(length, 128) - 2) : '';
        const ids = m._FPDF_StructElement_GetMarkedContentIdCount(element);
        const mcids: number[] = [];
        for (let i = 0; i < ids; i++) mcids.push(m._FPDF_StructElement_GetMarkedContentIdAtIndex(element, i));
        const children: StructNode[] = [];
        const count = depth < MAX_STRUCT_DEPTH ? m._FPDF_StructElement_CountChildren(element) : 0;
        for (let i = 0; i < count && budget-- > 0; i++) {
          const child = m._FPDF_StructElement_GetChildAtIndex(element, i);
          if (child) children.push(read(child, depth + 1));
        }
        if (type !== 'TD' && type !== 'TH') return { type, mcids, children };
        const rowSpan = spanOf(element, rowSpanName);
        const colSpan = spanOf(element, colSpanName);
        return { type, mcids, children, ...(rowSpan ? { rowSpan } : {}), ...(colSpan ? { colSpan } : {}) };
      };
      const roots: StructNode[] = [];
      const count = m._FPDF_StructTree_CountChildren(tree);
      for (let i = 0; i < count && budget-- > 0; i++) {
        const root = m._FPDF_StructTree_GetChildAtIndex(tree, i);
        if (root) roots.push(read(root, 1));
      }
      const tags = tagsByMarkedContent(roots);
      return tags.size > 0 ? tags : undefined;
    } finally {
      m.wasmExports.free(name);
      m._FPDF_StructTree_Close(tree);
    }
  }

  private textOf(textPage: number, count: number): string {
    const m = this.engine.module;
    const buffer = m.wasmExports.malloc((count + 1) * 2);
    try {
      const written = m._FPDFText_GetText(textPage, 0, count, buffer);
      return written > 1 ? utf16(m, buffer, (written - 1) * 2) : '';
    } finally {
      m.wasmExports.free(buffer);
    }
  }

  /**
   * The page's images, decoded, in content order. Images whose declared size is below `minEdge` are skipped
   * before decoding, and so are those above `maxPixels` (what a bitmap of that size would cost is the point).
   */
  pageImages(index: number, minEdge: number, maxPixels: number): PdfiumBitmap[] {
    const m = this.engine.module;
    return this.withPage(index, (page) => {
      const found: PdfiumBitmap[] = [];
      const size = m.wasmExports.malloc(8);
      try {
        const count = m._FPDFPage_CountObjects(page);
        for (let i = 0; i < count; i++) {
          const object = m._FPDFPage_GetObject(page, i);
          if (!object || m._FPDFPageObj_GetType(object) !== IMAGE_OBJECT) continue;
          if (!m._FPDFImageObj_GetImagePixelSize(object, size, size + 4)) continue;
          const view = new DataView(m.HEAPU8.buffer, size, 8);
          const width = view.getUint32(0, true);
          const height = view.getUint32(4, true);
          if (Math.min(width, height) < minEdge || width * height > maxPixels) continue;
          const bitmap = m._FPDFImageObj_GetBitmap(object);
          if (!bitmap) continue;
          try {
            const decoded = copyBitmap(m, bitmap);
            if (decoded) found.push(decoded);
          } finally {
            m._FPDFBitmap_Destroy(bitmap);
          }
        }
      } finally {
        m.wasmExports.free(size);
      }
      return found;
    });
  }

  /** The page drawn at `scale` (1 = 72 dpi) on white, as BGRA. For OCR of pages without a text layer. */
  renderPage(index: number, scale: number): PdfiumBitmap {
    const m = this.engine.module;
    return this.withPage(index, (page) => {
      const width = Math.max(1, Math.round(m._FPDF_GetPageWidthF(page) * scale));
      const height = Math.max(1, Math.round(m._FPDF_GetPageHeightF(page) * scale));
      const bitmap = m._FPDFBitmap_CreateEx(width, height, BITMAP_BGRA, 0, 0);
      if (!bitmap) throw new PdfiumRefusal(`page ${index + 1} is too large to render at scale ${scale}`);
      try {
        m._FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
        m._FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, RENDER_FLAGS);
        return copyBitmap(m, bitmap)!;
      } finally {
        m._FPDFBitmap_Destroy(bitmap);
      }
    });
  }

  /** The document's Info dictionary, trimmed, empty entries left out. */
  info(): DocumentInfo {
    const tags = { Title: 'title', Author: 'author', Subject: 'subject', Creator: 'creator', Producer: 'producer' };
    const found: DocumentInfo = {};
    for (const [tag, name] of Object.entries(tags)) {
      const value = this.metaText(tag).trim();
      if (value) found[name as keyof DocumentInfo] = value;
    }
    return found;
  }

  /** The version in the file's header, e.g. `1.7`. */
  version(): string | undefined {
    const m = this.engine.module;
    const out = m.wasmExports.malloc(4);
    try {
      if (!m._FPDF_GetFileVersion(this.handle, out)) return undefined;
      const version = new DataView(m.HEAPU8.buffer, out, 4).getInt32(0, true);
      return `${Math.floor(version / 10)}.${version % 10}`;
    } finally {
      m.wasmExports.free(out);
    }
  }

  /** Whether the file is encrypted (then with an empty user password, since it opened). */
  get encrypted(): boolean {
    return this.engine.module._FPDF_GetSecurityHandlerRevision(this.handle) !== -1;
  }

  close(): void {
    try {
      this.document.destroy();
    } catch (err) {
      if (isWasmAbort(err)) discardEngine();
    }
  }

  private metaText(tag: string): string {
    const m = this.engine.module;
    const name = m.wasmExports.malloc(tag.length + 1);
    try {
      m.HEAPU8.set(Buffer.from(`${tag}\0`, 'latin1'), name);
      const bytes = m._FPDF_GetMetaText(this.handle, name, 0, 0);
      if (bytes <= 2) return '';
      const buffer = m.wasmExports.malloc(bytes);
      try {
        m._FPDF_GetMetaText(this.handle, name, buffer, bytes);
        return utf16(m, buffer, bytes - 2);
      } finally {
        m.wasmExports.free(buffer);
      }
    } finally {
      m.wasmExports.free(name);
    }
  }
}

/** The middle of three numbers, as sorting them gives it (a NaN among them is left to the sort). */
function middleOf(a: number, b: number, c: number): number {
  if (Number.isNaN(a + b + c)) return [a, b, c].sort((x, y) => x - y)[1]!;
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

function utf16(m: PdfiumModule, ptr: number, bytes: number): string {
  return Buffer.from(m.HEAPU8.buffer, ptr, bytes).toString('utf16le');
}

/** Copies a PDFium bitmap out of WebAssembly memory with its rows packed (the stride may pad them). */
function copyBitmap(m: PdfiumModule, bitmap: number): PdfiumBitmap | undefined {
  const channels = FORMAT_CHANNELS[m._FPDFBitmap_GetFormat(bitmap)] as PdfiumBitmap['channels'] | undefined;
  const pointer = m._FPDFBitmap_GetBuffer(bitmap);
  if (!channels || !pointer) return undefined;
  const width = m._FPDFBitmap_GetWidth(bitmap);
  const height = m._FPDFBitmap_GetHeight(bitmap);
  const stride = m._FPDFBitmap_GetStride(bitmap);
  const row = width * channels;
  const data = Buffer.allocUnsafe(row * height);
  const heap = Buffer.from(m.HEAPU8.buffer);
  if (stride === row) heap.copy(data, 0, pointer, pointer + row * height);
  else for (let y = 0; y < height; y++) heap.copy(data, y * row, pointer + y * stride, pointer + y * stride + row);
  return { width, height, channels, data };
}

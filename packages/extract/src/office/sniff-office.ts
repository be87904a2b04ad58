import { ENCRYPTED_OFFICE_MIME } from './formats.ts';

/** An OLE2 (Compound File Binary) container whose streams the sniffed head did not show: the reader looks at them all. */
export const OLE2_MIME = 'application/x-cfb';
/** An OOXML package whose main part the sniffed head did not show (a thumbnail first, say): the reader looks at all its entries. */
export const OOXML_PACKAGE_MIME = 'application/x-ooxml-package';
/** Excel's binary workbook: an OOXML package whose parts are BIFF12 records, read through LibreOffice. */
export const XLSB_MIME = 'application/vnd.ms-excel.sheet.binary.macroenabled.12';

const OOXML_MAIN_PARTS: [RegExp, string][] = [
  [/^word\//, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  [/^ppt\//, 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  [/^xl\/workbook\.bin$/, XLSB_MIME],
  [/^xl\//, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
];

/**
 * Which OOXML format a package is, from its entries' names (lower-cased, with forward slashes, as `zipEntryName`
 * gives them): the directory of its main part, the binary workbook before the XML one. Undefined for another zip.
 */
export function ooxmlFormatOfNames(names: string[]): string | undefined {
  for (const [part, mime] of OOXML_MAIN_PARTS) if (names.some((name) => part.test(name))) return mime;
  return undefined;
}

/**
 * An OOXML package whose `[Content_Types].xml` is not among the first entries (openpyxl and others write it
 * last, some writers put a thumbnail first): the names of the local entries in the head tell which part
 * directory it has, or, when none is in the head yet, that it is a package for the reader to look into.
 * Undefined for any other zip.
 */
export function ooxmlFromZipHead(head: Buffer): string | undefined {
  const names = zipEntryNamesIn(head);
  const isPackage = names.some(
    (name) =>
      name === '[content_types].xml' ||
      name === '_rels/.rels' ||
      name.startsWith('docprops/') ||
      /^(word|ppt|xl)\/_rels\//.test(name) ||
      /^(word\/document|xl\/workbook|ppt\/presentation)\.xml$/.test(name),
  );
  if (!isPackage) return undefined;
  return ooxmlFormatOfNames(names) ?? OOXML_PACKAGE_MIME;
}

/** The binary workbook, which file-type takes for an XLSX by its `xl/` directory. */
export const isXlsbHead = (head: Buffer) => zipEntryNamesIn(head).includes('xl/workbook.bin');

/** A zip entry's name as the office readers compare it: Office ignores case, and some writers separate folders with backslashes. */
export const zipEntryName = (name: string) => name.replace(/\\/g, '/').toLowerCase();

function zipEntryNamesIn(head: Buffer): string[] {
  const names: string[] = [];
  for (let at = head.indexOf('PK\x03\x04'); at >= 0 && at + 30 <= head.length;) {
    const nameLength = head.readUInt16LE(at + 26);
    names.push(zipEntryName(head.subarray(at + 30, Math.min(head.length, at + 30 + nameLength)).toString('latin1')));
    at = head.indexOf('PK\x03\x04', at + 30 + nameLength);
  }
  return names;
}

/**
 * The OLE2 streams that name a legacy format (Word 97-2003, PowerPoint 4 and 97-2003, Excel 5 to 2003) or an
 * encrypted OOXML package, lower-cased: OLE2 compares names without case, and some writers use capitals (`WORKBOOK`).
 */
const OLE2_STREAMS: [string, string][] = [
  ['encryptedpackage', ENCRYPTED_OFFICE_MIME],
  ['worddocument', 'application/msword'],
  ['powerpoint document', 'application/vnd.ms-powerpoint'],
  ['pp40', 'application/vnd.ms-powerpoint'],
  ['workbook', 'application/vnd.ms-excel'],
  ['book', 'application/vnd.ms-excel'],
];

/**
 * What an OLE2 container holds, from the names of its directory entries: `names` are what `ole2StreamNames`
 * read, of the head or of the whole file. Undefined when none names an office format (an MSI, an Outlook message).
 */
export function officeFormatOfOle2(names: string[]): string | undefined {
  const lowerNames = new Set(names.map((name) => name.toLowerCase()));
  for (const [stream, mime] of OLE2_STREAMS) if (lowerNames.has(stream)) return mime;
  return undefined;
}

const END_OF_CHAIN = 0xfffffffe;

/**
 * Whether the head holds the OLE2 container's whole directory: its sector chain, followed through the FAT,
 * never leaves the head. Only then do the names read from the head say all the file holds; a directory that
 * goes on further (a document with many streams) is left to the reader, which reads the whole file.
 */
export function ole2DirectoryInHead(head: Buffer): boolean {
  if (head.length < 512) return false;
  const sectorSize = 1 << head.readUInt16LE(0x1e);
  if (sectorSize !== 512 && sectorSize !== 4096) return false;
  const fatEntriesPerSector = sectorSize / 4;
  const sectorAt = (sector: number) => (sector + 1) * sectorSize;
  const nextOf = (sector: number): number | undefined => {
    const fatIndex = Math.floor(sector / fatEntriesPerSector);
    if (fatIndex >= 109) return undefined;
    const at = sectorAt(head.readUInt32LE(0x4c + fatIndex * 4)) + (sector % fatEntriesPerSector) * 4;
    return at + 4 <= head.length ? head.readUInt32LE(at) : undefined;
  };
  let sector = head.readUInt32LE(0x30);
  for (let hops = 0; hops < 64; hops++) {
    if (sector === END_OF_CHAIN) return true;
    if (sectorAt(sector) + sectorSize > head.length) return false;
    const next = nextOf(sector);
    if (next === undefined) return false;
    sector = next;
  }
  return false;
}

/**
 * The names of the directory entries found in `bytes`: each is 128 bytes on a 128-byte boundary, its UTF-16
 * name first, the name's byte length at 64 and its type (storage 1, stream 2, root 5) at 66. Reading every
 * aligned slot rather than following the sector chain works on a head as on a damaged file.
 */
export function ole2StreamNames(bytes: Buffer): string[] {
  const names: string[] = [];
  for (let at = 512; at + 128 <= bytes.length; at += 128) {
    const nameBytes = bytes.readUInt16LE(at + 64);
    const type = bytes[at + 66];
    if (nameBytes < 4 || nameBytes > 64 || nameBytes % 2 !== 0 || (type !== 1 && type !== 2 && type !== 5)) continue;
    if (bytes.readUInt16LE(at + nameBytes - 2) !== 0) continue;
    const name = bytes.subarray(at, at + nameBytes - 2).toString('utf16le');
    if (/^[\x01-\x06]?[\x20-\x7e]+$/.test(name)) names.push(name);
  }
  return names;
}

/**
 * Word 1 and 2 (`wIdent` 0xA59B, 0xA59C, 0xA5DB) and Excel 2 to 4 worksheets and workbooks (a BIFF2-4 BOF record
 * first): formats older than OLE2 that LibreOffice still reads. Their MIME types are those of the 97-2003 formats.
 */
export function preOle2OfficeMime(head: Buffer): string | undefined {
  if (head.length < 8) return undefined;
  const ident = head.readUInt16LE(0);
  if (ident === 0xa59b || ident === 0xa59c || ident === 0xa5db) return 'application/msword';
  const bofLength = head.readUInt16LE(2);
  const biffBof = head[0] === 0x09 && (head[1] === 0x00 || head[1] === 0x02 || head[1] === 0x04);
  const sheetType = head.readUInt16LE(6);
  if (biffBof && bofLength >= 4 && bofLength <= 16 && [0x10, 0x20, 0x40, 0x100].includes(sheetType))
    return 'application/vnd.ms-excel';
  return undefined;
}

export const isOle2 = (head: Buffer) =>
  head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));

/**
 * Whether text is a delimited table (CSV or TSV): at least three lines, each cut by the delimiter into the same
 * number of fields (two or more), quotes respected. Prose has commas too, but not the same count on every line.
 */
export function delimitedTableMime(text: string): string | undefined {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(0, 50);
  // The head may end mid-line; the last line is not held to the count unless the whole file fits.
  if (lines.length > 1) lines.pop();
  const filled = lines.filter((line) => line.trim() !== '');
  if (filled.length < 3) return undefined;
  for (const [delimiter, mime] of [
    ['\t', 'text/tab-separated-values'],
    [',', 'text/csv'],
    [';', 'text/csv'],
  ] as const) {
    const counts = filled.map((line) => fieldCount(line, delimiter));
    if (counts[0]! >= 2 && counts.every((count) => count === counts[0])) {
      // A sentence with one comma per line is prose; a table's fields are short.
      const longFields = filled.some((line) => line.split(delimiter).some((field) => field.split(/\s+/).length > 12));
      // Prose puts a space after its commas; a table rarely does.
      const spaced = filled.join('\n').split(`${delimiter} `).length - 1;
      const all = counts.reduce((sum, count) => sum + count - 1, 0);
      if (delimiter === '\t' || (!longFields && spaced * 2 <= all)) return mime;
    }
  }
  return undefined;
}

function fieldCount(line: string, delimiter: string): number {
  let count = 1;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count++;
  }
  return count;
}

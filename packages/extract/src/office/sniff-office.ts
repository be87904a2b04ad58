import { ENCRYPTED_OFFICE_MIME } from './formats.ts';

/** An OLE2 (Compound File Binary) container whose streams the sniffed head did not show: the reader looks at them all. */
export const OLE2_MIME = 'application/x-cfb';

const OOXML_MAIN_PARTS: [RegExp, string][] = [
  [/^word\//, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  [/^ppt\//, 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  [/^xl\//, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
];

/**
 * An OOXML package whose `[Content_Types].xml` is not among the first entries (openpyxl and others write it
 * last): the names of the local entries in the head tell which part directory it has. Undefined for any other zip.
 */
export function ooxmlFromZipHead(head: Buffer): string | undefined {
  const names = zipEntryNamesIn(head);
  const isPackage = names.some(
    (name) =>
      name === '_rels/.rels' ||
      name.startsWith('docProps/') ||
      /^(word|ppt|xl)\/_rels\//.test(name) ||
      /^(word\/document|xl\/workbook|ppt\/presentation)\.xml$/.test(name),
  );
  if (!isPackage) return undefined;
  for (const [directory, mime] of OOXML_MAIN_PARTS) if (names.some((name) => directory.test(name))) return mime;
  return undefined;
}

function zipEntryNamesIn(head: Buffer): string[] {
  const names: string[] = [];
  for (let at = head.indexOf('PK\x03\x04'); at >= 0 && at + 30 <= head.length;) {
    const nameLength = head.readUInt16LE(at + 26);
    names.push(head.subarray(at + 30, Math.min(head.length, at + 30 + nameLength)).toString('latin1'));
    at = head.indexOf('PK\x03\x04', at + 30 + nameLength);
  }
  return names;
}

/** The OLE2 streams that name a legacy format (Word 97-2003, PowerPoint 97-2003, Excel 97-2003) or an encrypted OOXML package. */
const OLE2_STREAMS: [string, string][] = [
  ['EncryptedPackage', ENCRYPTED_OFFICE_MIME],
  ['WordDocument', 'application/msword'],
  ['PowerPoint Document', 'application/vnd.ms-powerpoint'],
  ['Workbook', 'application/vnd.ms-excel'],
  ['Book', 'application/vnd.ms-excel'],
];

/**
 * What an OLE2 container holds, from the names of its directory entries: `names` are what `ole2StreamNames`
 * read, of the head or of the whole file. Undefined when none names an office format (an MSI, an Outlook message).
 */
export function officeFormatOfOle2(names: string[]): string | undefined {
  for (const [stream, mime] of OLE2_STREAMS) if (names.includes(stream)) return mime;
  return undefined;
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

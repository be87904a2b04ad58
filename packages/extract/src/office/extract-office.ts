import fs from 'node:fs/promises';
import { ExtractError, type ExtractOptions, type ExtractResult } from '../types.ts';
import { openZipArchive } from '../zip-archive.ts';
import { readDelimited } from './delimited.ts';
import { readDocx } from './docx.ts';
import { officeFormatOf, type OfficeFormat } from './formats.ts';
import { readLegacy } from './legacy.ts';
import { readOdf } from './odf.ts';
import { readPptx } from './pptx.ts';
import { readRtf } from './rtf.ts';
import { readXlsx } from './xlsx.ts';
import { OfficePackage } from './package.ts';
import { readOle2 } from './ole2-file.ts';
import {
  isOle2,
  officeFormatOfOle2,
  ole2StreamNames,
  OLE2_MIME,
  ooxmlFormatOfNames,
  OOXML_PACKAGE_MIME,
  zipEntryName,
} from './sniff-office.ts';

const ZIP_FORMATS = new Set<OfficeFormat>(['docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods']);

/** Whether the sniffed MIME type is one the office readers take (`text.ts` hands them the file). */
export const isOfficeMime = (mimeType: string) =>
  officeFormatOf(mimeType) !== undefined || mimeType === OLE2_MIME || mimeType === OOXML_PACKAGE_MIME;

/**
 * Reads a document, a deck or a workbook into the document model, by the format its bytes were sniffed as. The
 * readers are imported up front: a sandboxed child loads every module before it serves jobs, and none after.
 */
export async function extractOffice(
  inputPath: string,
  mimeType: string,
  options: ExtractOptions,
): Promise<ExtractResult> {
  let format = officeFormatOf(mimeType);
  let encrypted = false;
  if (mimeType === OLE2_MIME || (format && OLE2_FORMATS.has(format)))
    ({ format, encrypted } = await ole2FormatOf(inputPath, format));
  if (format === 'encrypted') throw new ExtractError('ENCRYPTED', 'The document is password-protected');
  if (mimeType === OOXML_PACKAGE_MIME || ZIP_FORMATS.has(format!)) {
    const pkg = new OfficePackage(await openZipArchive(inputPath));
    try {
      // A package the head did not say enough of is known by all its entries' names.
      if (mimeType === OOXML_PACKAGE_MIME)
        format = officeFormatOf(ooxmlFormatOfNames(pkg.archive.names.map(zipEntryName)) ?? '');
      if (format === undefined)
        throw new ExtractError('UNSUPPORTED', 'The zip file is an office package of no format quire reads');
      if (ZIP_FORMATS.has(format)) return await readPackage(format, pkg, options);
    } finally {
      pkg.archive.close();
    }
  }
  if (format === 'csv' || format === 'tsv') return readDelimited(await fs.readFile(inputPath), format);
  if (format === 'rtf') return readRtf(await fs.readFile(inputPath));
  try {
    return await readLegacy(inputPath, format!, options, extractOffice);
  } catch (err) {
    // Excel encrypts with a default password too (a write-protected workbook), which LibreOffice reads: the
    // mark only says why LibreOffice could not.
    if (encrypted && err instanceof ExtractError && err.code === 'CORRUPT')
      throw new ExtractError('ENCRYPTED', 'The document is password-protected');
    throw err;
  }
}

const OLE2_FORMATS = new Set<OfficeFormat>(['doc', 'ppt', 'xls']);
/** Past this, an OLE2 file is named by its streams' names alone rather than read whole by `cfb`. */
const OLE2_READ_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The format of an OLE2 file, from the whole file: its root's streams name it (the head's names, which the
 * sniffed type came from, can be an embedded object's), and whether it bears an encryption mark. A file `cfb`
 * cannot read keeps the sniffed format, or is named by the stream names found in it.
 */
async function ole2FormatOf(
  inputPath: string,
  sniffed: OfficeFormat | undefined,
): Promise<{ format: OfficeFormat; encrypted: boolean }> {
  const bytes = await fs.readFile(inputPath);
  // Word 1-2 and Excel 2-4 files are older than OLE2.
  if (!isOle2(bytes)) return { format: sniffed!, encrypted: false };
  const reading = bytes.length <= OLE2_READ_MAX_BYTES ? readOle2(bytes) : undefined;
  const format = officeFormatOf(reading?.mimeType ?? officeFormatOfOle2(ole2StreamNames(bytes)) ?? '') ?? sniffed;
  if (format === undefined) throw new ExtractError('UNSUPPORTED', 'The file is an OLE2 container of no office format');
  return { format, encrypted: reading?.encrypted ?? false };
}

async function readPackage(format: OfficeFormat, pkg: OfficePackage, options: ExtractOptions): Promise<ExtractResult> {
  if (format === 'docx') return readDocx(pkg, options);
  if (format === 'pptx') return readPptx(pkg, options);
  if (format === 'xlsx') return readXlsx(pkg);
  return readOdf(pkg, format, options);
}

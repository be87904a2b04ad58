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
import {
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
  if (mimeType === OLE2_MIME) {
    format = officeFormatOf(officeFormatOfOle2(ole2StreamNames(await fs.readFile(inputPath))) ?? '');
    if (format === undefined)
      throw new ExtractError('UNSUPPORTED', 'The file is an OLE2 container of no office format');
  }
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
  return readLegacy(inputPath, format!, options, extractOffice);
}

async function readPackage(format: OfficeFormat, pkg: OfficePackage, options: ExtractOptions): Promise<ExtractResult> {
  if (format === 'docx') return readDocx(pkg, options);
  if (format === 'pptx') return readPptx(pkg, options);
  if (format === 'xlsx') return readXlsx(pkg);
  return readOdf(pkg, format, options);
}

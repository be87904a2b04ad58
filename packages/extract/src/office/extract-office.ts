import fs from 'node:fs/promises';
import { ExtractError, type ExtractOptions, type ExtractResult } from '../types.ts';
import { openZipArchive } from '../zip-archive.ts';
import { officeFormatOf, type OfficeFormat } from './formats.ts';
import { OfficePackage } from './package.ts';
import { officeFormatOfOle2, ole2StreamNames, OLE2_MIME } from './sniff-office.ts';

const ZIP_FORMATS = new Set<OfficeFormat>(['docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods']);

/** Whether the sniffed MIME type is one the office readers take (`text.ts` hands them the file). */
export const isOfficeMime = (mimeType: string) => officeFormatOf(mimeType) !== undefined || mimeType === OLE2_MIME;

/** Reads a document, a deck or a workbook into the document model, by the format its bytes were sniffed as. */
export async function extractOffice(
  inputPath: string,
  mimeType: string,
  options: ExtractOptions,
): Promise<ExtractResult> {
  let format = officeFormatOf(mimeType);
  if (mimeType === OLE2_MIME)
    format = officeFormatOf(officeFormatOfOle2(ole2StreamNames(await fs.readFile(inputPath))) ?? '');
  if (format === undefined) throw new ExtractError('UNSUPPORTED', 'The file is an OLE2 container of no office format');
  if (format === 'encrypted') throw new ExtractError('ENCRYPTED', 'The document is password-protected');
  if (ZIP_FORMATS.has(format)) {
    const pkg = new OfficePackage(await openZipArchive(inputPath));
    try {
      return await readPackage(format, pkg, options);
    } finally {
      pkg.archive.close();
    }
  }
  if (format === 'csv' || format === 'tsv')
    return (await import('./delimited.ts')).readDelimited(await fs.readFile(inputPath), format);
  if (format === 'rtf') return (await import('./rtf.ts')).readRtf(await fs.readFile(inputPath));
  return (await import('./legacy.ts')).readLegacy(inputPath, format, options);
}

async function readPackage(format: OfficeFormat, pkg: OfficePackage, options: ExtractOptions): Promise<ExtractResult> {
  if (format === 'docx') return (await import('./docx.ts')).readDocx(pkg, options);
  if (format === 'pptx') return (await import('./pptx.ts')).readPptx(pkg, options);
  if (format === 'xlsx') return (await import('./xlsx.ts')).readXlsx(pkg);
  return (await import('./odf.ts')).readOdf(pkg, format, options);
}

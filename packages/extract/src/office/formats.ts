/** An OLE2 container holding an encrypted OOXML package (`EncryptionInfo`, `EncryptedPackage`): Office writes this for a password-protected file. */
export const ENCRYPTED_OFFICE_MIME = 'application/x-ooxml-encrypted';

/** The office formats quire reads, by the MIME type their bytes were sniffed as, with the word `metadata.format` names them by. */
export const OFFICE_FORMATS: Record<string, OfficeFormat> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template': 'docx',
  'application/vnd.ms-word.document.macroenabled.12': 'docx',
  'application/vnd.ms-word.template.macroenabled.12': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.template': 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': 'pptx',
  'application/vnd.ms-powerpoint.slideshow.macroenabled.12': 'pptx',
  'application/vnd.ms-powerpoint.template.macroenabled.12': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'application/vnd.ms-excel.template.macroenabled.12': 'xlsx',
  'application/vnd.ms-excel.sheet.binary.macroenabled.12': 'xlsb',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/rtf': 'rtf',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/msword': 'doc',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.ms-excel': 'xls',
  [ENCRYPTED_OFFICE_MIME]: 'encrypted',
};

export type OfficeFormat =
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'xlsb'
  | 'odt'
  | 'odp'
  | 'ods'
  | 'rtf'
  | 'csv'
  | 'tsv'
  | 'doc'
  | 'ppt'
  | 'xls'
  | 'encrypted';

/** The binary formats (97-2003 and older, and Excel's binary workbook), read by converting them with LibreOffice. */
export const LEGACY_FORMATS = new Set<OfficeFormat>(['doc', 'ppt', 'xls', 'xlsb']);

export const officeFormatOf = (mimeType: string): OfficeFormat | undefined =>
  OFFICE_FORMATS[mimeType.split(';')[0]!.trim().toLowerCase()];

/**
 * The folder tesseract reads its languages from is made by the process that runs OCR and named after it, so that
 * whoever outlives that process (its parent, the next worker start) can find it and remove it however it ended.
 */
export const OCR_DIR_PREFIX = 'quire-ocr-';

export const ocrDirPrefixOf = (pid: number) => `${OCR_DIR_PREFIX}${pid}-`;

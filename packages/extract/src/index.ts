export * from './types.ts';
export * from './document.ts';
export { MarkdownWriter, toMarkdown, escapeMarkdown, tableGrid, type MarkdownOptions } from './markdown.ts';
export { countWords, normalizeText } from './words.ts';
export { charsetOf, withDeclaredCharset } from './html-encoding.ts';
export { sniff, claimedKind, claimContradicts, SNIFF_BYTES, type Sniffed } from './sniff.ts';
// The extractors themselves (pdf.js alone is ~150 MB resident) load only in the sandbox's child process,
// through '@quire/extract/extractors'; the api and the worker's parent process need just these.
export type { ExtractorSettings } from './registry.ts';
export { OCR_DIR_PREFIX, ocrDirPrefixOf } from './ocr-dirs.ts';
export { findTrainedData, missingOcrLanguages, type OcrSettings } from './ocr-languages.ts';
export { EXTRACTOR_VERSIONS, type ExtractorVersion } from './versions.ts';

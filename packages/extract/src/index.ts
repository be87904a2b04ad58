export * from './types.ts';
export { countWords, normalizeText } from './words.ts';
export { sniff, claimedKind, claimContradicts, SNIFF_BYTES, type Sniffed } from './sniff.ts';
export { createExtractor, type ExtractorSettings } from './registry.ts';
export { EXTRACTOR_VERSIONS, type ExtractorVersion } from './versions.ts';

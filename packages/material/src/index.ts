export * from './material.ts';
export * from './material.row.ts';
export * from './metadata.ts';
export * from './source.ts';
export * from './status.ts';
export { storageKeys } from './storage-keys.ts';
export * from './wire.ts';
export { CONTENT_TYPES, type ContentType } from '@quire/extract';
export * from './text-segment.ts';

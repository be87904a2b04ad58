export type { DownloadOptions, ObjectInfo, ObjectStore } from './object-store.ts';
export {
  createLocalStore,
  ObjectExistsError,
  type LocalStore,
  type SignatureCheck,
  type SignedOperation,
} from './local-store.ts';
export { createS3Store, contentDisposition, type S3StoreOptions } from './s3-store.ts';
export { createObjectStore } from './create-object-store.ts';

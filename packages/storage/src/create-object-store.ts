import type { Config } from '@quire/config';
import { createLocalStore } from './local-store.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3Store } from './s3-store.ts';

/** S3 when S3_ENDPOINT is set, local disk otherwise. */
export async function createObjectStore(config: Config): Promise<ObjectStore> {
  const keyPrefix = config.STORAGE_KEY_PREFIX;
  if (config.S3_ENDPOINT) {
    const store = createS3Store({
      endPoint: config.S3_ENDPOINT,
      port: config.S3_PORT,
      useSSL: config.S3_USE_SSL,
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      keyPrefix,
    });
    await store.ensureBucket();
    return store;
  }
  if (!config.STORAGE_SIGNING_SECRET) {
    throw new Error('STORAGE_SIGNING_SECRET must be set when objects are stored on local disk (S3_ENDPOINT unset)');
  }
  return createLocalStore({
    rootDir: keyPrefix ? `${config.storageDir}/${keyPrefix.replace(/\/$/, '')}` : config.storageDir,
    publicUrl: config.publicUrl,
    signingSecret: config.STORAGE_SIGNING_SECRET,
  });
}

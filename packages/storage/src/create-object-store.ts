import type { Config } from '@quire/config';
import { createLocalStore } from './local-store.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3Store } from './s3-store.ts';

/** S3 when S3_ENDPOINT is set, local disk otherwise. */
export async function createObjectStore(config: Config): Promise<ObjectStore> {
  const { storage } = config;
  const { keyPrefix } = storage;
  if (storage.driver === 's3') {
    const store = createS3Store({
      endPoint: storage.endpoint,
      port: storage.port,
      useSSL: storage.useSsl,
      accessKey: storage.accessKey,
      secretKey: storage.secretKey,
      region: storage.region,
      bucket: storage.bucket,
      keyPrefix,
    });
    await store.ensureBucket();
    return store;
  }
  if (!storage.signingSecret) {
    throw new Error('STORAGE_SIGNING_SECRET must be set when objects are stored on local disk (S3_ENDPOINT unset)');
  }
  return createLocalStore({
    rootDir: keyPrefix ? `${storage.dir}/${keyPrefix.replace(/\/$/, '')}` : storage.dir,
    publicUrl: config.server.publicUrl,
    signingSecret: storage.signingSecret,
  });
}

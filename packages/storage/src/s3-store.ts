import { type Readable } from 'node:stream';
import { create as createContentDisposition } from 'content-disposition';
import * as Minio from 'minio';
import { assertSafeKey, type ObjectInfo, type ObjectStore } from './object-store.ts';

export interface S3StoreOptions {
  endPoint: string;
  port?: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
  /** Prefix for every key (tests isolate themselves with it). */
  keyPrefix?: string;
}

/** One part is held in memory at a time, so an upload of any size costs about this much. */
const PART_SIZE = 5 * 1024 * 1024;

export function createS3Store(options: S3StoreOptions): ObjectStore & { ensureBucket(): Promise<void> } {
  const client = new Minio.Client({
    endPoint: options.endPoint,
    port: options.port,
    useSSL: options.useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region,
    partSize: PART_SIZE,
  });
  const { bucket } = options;
  const prefix = options.keyPrefix ?? '';
  const full = (key: string) => {
    assertSafeKey(key);
    return prefix + key;
  };

  return {
    driver: 's3',
    async ensureBucket() {
      if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket, options.region);
    },
    async put(key, body, opts = {}) {
      const meta: Record<string, string> = opts.contentType ? { 'Content-Type': opts.contentType } : {};
      if (Buffer.isBuffer(body)) {
        await client.putObject(bucket, full(key), body, body.length, meta);
        return { size: body.length };
      }
      return { size: await putStream(client, bucket, full(key), body, meta) };
    },
    async get(key) {
      return client.getObject(bucket, full(key));
    },
    async head(key, length) {
      const info = await client.statObject(bucket, full(key));
      if (info.size === 0) return Buffer.alloc(0);
      const stream = await client.getPartialObject(bucket, full(key), 0, Math.min(length, info.size));
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async stat(key): Promise<ObjectInfo | null> {
      try {
        const info = await client.statObject(bucket, full(key));
        return { size: info.size, contentType: info.metaData?.['content-type'], etag: info.etag };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async remove(keys) {
      if (keys.length > 0) await client.removeObjects(bucket, keys.map(full));
    },
    async presignPut(key, ttlSeconds) {
      return client.presignedPutObject(bucket, full(key), ttlSeconds);
    },
    async presignGet(key, ttlSeconds, opts = {}) {
      // S3 serves what the URL's signed `response-*` overrides say, whatever type the object was stored with.
      const headers: Record<string, string> = {};
      if (opts.contentType) headers['response-content-type'] = opts.contentType;
      if (opts.filename || opts.disposition)
        headers['response-content-disposition'] = contentDisposition(opts.filename, opts.disposition);
      return client.presignedGetObject(bucket, full(key), ttlSeconds, headers);
    },
    async ping() {
      await client.bucketExists(bucket);
    },
  };
}

/**
 * Streams into a multipart upload part by part. minio's own streaming put first lists incomplete uploads
 * (not every S3-compatible server has that) and, with an unknown length, picks ~550 MB parts.
 */
async function putStream(
  client: Minio.Client,
  bucket: string,
  key: string,
  body: Readable,
  meta: Record<string, string>,
): Promise<number> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  let uploadId: string | undefined;
  const parts: { part: number; etag: string }[] = [];
  const flush = async () => {
    const payload = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    uploadId ??= await client.initiateNewMultipartUpload(bucket, key, meta);
    const partNumber = parts.length + 1;
    const { etag } = await client.uploadPart(
      {
        bucketName: bucket,
        objectName: key,
        uploadID: uploadId,
        partNumber,
        headers: { 'Content-Length': payload.length },
      },
      payload,
    );
    parts.push({ part: partNumber, etag });
  };
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      pending.push(buffer);
      pendingBytes += buffer.length;
      total += buffer.length;
      if (pendingBytes >= PART_SIZE) await flush();
    }
    if (!uploadId) {
      await client.putObject(bucket, key, Buffer.concat(pending, pendingBytes), pendingBytes, meta);
      return total;
    }
    if (pendingBytes > 0) await flush();
    await client.completeMultipartUpload(bucket, key, uploadId, parts);
    return total;
  } catch (err) {
    // The put's own error is what the caller needs; an upload left unaborted only costs space until the bucket's lifecycle rule.
    if (uploadId) {
      await client
        .abortMultipartUpload(bucket, key, uploadId)
        .catch((abortErr: Error) =>
          process.emitWarning(`could not abort multipart upload ${uploadId} of ${key}: ${abortErr.message}`),
        );
    }
    throw err;
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey' || code === 'NoSuchObject';
}

/** A `Content-Disposition` value: an ASCII `filename` fallback and, past ASCII, RFC 5987's `filename*`. */
export function contentDisposition(filename: string | undefined, type: 'inline' | 'attachment' = 'attachment'): string {
  return createContentDisposition(filename, { type });
}

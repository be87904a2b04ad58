import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StorageEngine } from 'multer';
import type { Logger } from 'pino';
import type { StoredUpload } from '@quire/lifecycle';
import type { ObjectStore } from '@quire/storage';
import { SNIFF_BYTES } from '@quire/extract';

/** What the engine learns of the file while storing it; the receiver adds the client's name and type. */
type StreamedFile = Omit<StoredUpload, 'filename' | 'mimeType'>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- augmenting multer's global type is the only way in
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-namespace
    namespace Multer {
      // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the fields into multer's File
      interface File extends Partial<StreamedFile> {}
    }
  }
}

/** Keeps the first `limit` bytes (to sniff the type) and hashes all of them, without buffering the file. */
class HeadCapture extends Transform {
  private readonly chunks: Buffer[] = [];
  private readonly hash = createHash('sha256');
  private captured = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.hash.update(chunk);
    if (this.captured < this.limit) {
      const part = chunk.subarray(0, this.limit - this.captured);
      this.chunks.push(Buffer.from(part));
      this.captured += part.length;
    }
    done(null, chunk);
  }
  get head(): Buffer {
    return Buffer.concat(this.chunks);
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Reads a stream to its end, keeping nothing; resolves with its length. */
async function drain(stream: Readable): Promise<{ size: number }> {
  let size = 0;
  for await (const chunk of stream) size += (chunk as Buffer).length;
  return { size };
}

/**
 * A multer storage engine that streams the file straight into the object store under a key chosen by
 * the server (`keyFor()`), never holding the whole file in memory or on the api's disk. Without a store, the
 * file is only measured and hashed (an idempotent replay's, answered from what is stored under its key).
 */
export function objectStoreEngine(store: ObjectStore | undefined, keyFor: () => string, logger: Logger): StorageEngine {
  return {
    _handleFile(_req, file, callback) {
      const key = keyFor();
      const capture = new HeadCapture(SNIFF_BYTES);
      let truncated = false;
      file.stream.on('limit', () => (truncated = true));
      // pipeline destroys `capture` if the client's stream fails, which fails the store's put too (and is reported there).
      pipeline(file.stream, capture).catch((err) => logger.debug({ err }, 'the upload stream ended early'));
      (store ? store.put(key, capture, { contentType: 'application/octet-stream' }) : drain(capture)).then(
        ({ size }) => callback(null, { key, size, head: capture.head, truncated, sha256: capture.digest() }),
        (err: Error) => callback(err),
      );
    },
    _removeFile(_req, file, callback) {
      if (!file.key || !store) return callback(null);
      store.remove([file.key]).then(() => callback(null), callback);
    },
  };
}

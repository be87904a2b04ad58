import { Transform, type TransformCallback } from 'node:stream';

/** Fails the stream once more than `maxBytes` pass, so an oversized upload stops instead of filling a disk. */
export class ByteLimit extends Transform {
  bytes = 0;
  exceeded = false;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.exceeded = true;
      return done(new Error('upload limit exceeded'));
    }
    done(null, chunk);
  }
}

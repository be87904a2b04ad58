import { Transform } from 'node:stream';

/** Passes bytes through and counts them, so a streamed upload's size is known without buffering it. */
export class CountingStream extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void) {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

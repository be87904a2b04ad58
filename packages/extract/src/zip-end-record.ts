import { createReadStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';

const END_RECORD_SIGNATURE = 0x06054b50;
/** The end-of-central-directory record without its comment; the comment's length is its last two bytes. */
const END_RECORD_BYTES = 22;
const COMMENT_LENGTH_OFFSET = 20;
const MAX_COMMENT_BYTES = 0xffff;

/**
 * Opens a zip whose end-of-central-directory record gives its comment a length other than the bytes that follow
 * it, which yauzl refuses and Office, LibreOffice and Apache POI read: the same file, read through a reader that
 * gives that length as it should be. Undefined for a file without such a record. Only the record's two bytes
 * differ from the file, so the central directory and the entries are read, and checked, as in any other zip.
 */
export async function openWithCommentLengthCorrected(
  file: string,
  options: yauzl.Options,
): Promise<yauzl.ZipFile | undefined> {
  const handle = await fs.open(file, 'r');
  let size: number;
  let correction: Correction | undefined;
  try {
    ({ size } = await handle.stat());
    correction = await commentLengthCorrection(handle, size);
  } finally {
    await handle.close();
  }
  return correction && yauzl.fromRandomAccessReaderPromise(new CorrectedFileReader(file, correction), size, options);
}

interface Correction {
  /** Where in the file the comment length is. */
  at: number;
  /** It as it should be: the length, little-endian. */
  bytes: Buffer;
}

/** The last end record in the file's tail, as yauzl finds it, when its comment length is not the bytes after it. */
async function commentLengthCorrection(handle: FileHandle, size: number): Promise<Correction | undefined> {
  const tailBytes = Math.min(size, END_RECORD_BYTES + MAX_COMMENT_BYTES);
  const tail = Buffer.alloc(tailBytes);
  await handle.read(tail, 0, tailBytes, size - tailBytes);
  for (let at = tailBytes - END_RECORD_BYTES; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== END_RECORD_SIGNATURE) continue;
    const following = tailBytes - at - END_RECORD_BYTES;
    if (tail.readUInt16LE(at + COMMENT_LENGTH_OFFSET) === following) return undefined;
    const bytes = Buffer.alloc(2);
    bytes.writeUInt16LE(following);
    return { at: size - tailBytes + at + COMMENT_LENGTH_OFFSET, bytes };
  }
  return undefined;
}

/** The file's bytes as yauzl asks for them, with the correction in place of the bytes it replaces. */
class CorrectedFileReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly file: string,
    private readonly correction: Correction,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const { at, bytes } = this.correction;
    let position = start;
    const correct = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        let corrected: Buffer | undefined;
        for (let i = 0; i < bytes.length; i++) {
          const offset = at + i - position;
          if (offset < 0 || offset >= chunk.length) continue;
          corrected ??= Buffer.from(chunk);
          corrected[offset] = bytes[i]!;
        }
        position += chunk.length;
        done(null, corrected ?? chunk);
      },
    });
    // A failed read reaches yauzl as an error of the stream it was given.
    return pipeline(createReadStream(this.file, { start, end: end - 1 }), correct, () => {});
  }
}

import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { ExtractError } from './types.ts';
import { openWithCommentLengthCorrected } from './zip-end-record.ts';

export interface ZipLimits {
  maxEntries: number;
  /** Sum of the sizes the central directory declares for the inflated entries. */
  maxInflatedBytes: number;
  /** Inflated / compressed, per entry and for the whole archive; ordinary books stay far below it. */
  maxRatio: number;
  /** Entries and archives smaller than this inflated are not held to the ratio (a 40 KB stylesheet of spaces is no bomb). */
  ratioFloorBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxInflatedBytes: 1024 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

/** A zip whose central directory has been checked against the limits; entries are inflated only on `read`. */
export interface ZipArchive {
  names: string[];
  /** The inflated bytes of one entry; yauzl fails the read if they exceed what the directory declared. */
  read(name: string): Promise<Buffer>;
  close(): void;
}

/**
 * Opens a zip and refuses bombs from its central directory alone, before anything is inflated: too many
 * entries, too many declared bytes, or a compression ratio no real document reaches. Throws TOO_LARGE for a
 * bomb, CORRUPT for a file that is not a readable zip, ENCRYPTED for password-protected entries.
 */
export async function openZipArchive(file: string, limits: ZipLimits = ZIP_LIMITS): Promise<ZipArchive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (err) {
    throw new ExtractError('CORRUPT', `The file is not a readable zip archive: ${(err as Error).message}`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ExtractError(
        'TOO_LARGE',
        `The archive holds ${zip.entryCount} files; at most ${limits.maxEntries} are accepted`,
      );
    }
    const entries = new Map<string, yauzl.Entry>();
    let inflated = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.isEncrypted()) throw new ExtractError('ENCRYPTED', 'The archive is password-protected');
      inflated += entry.uncompressedSize;
      if (inflated > limits.maxInflatedBytes) {
        throw new ExtractError(
          'TOO_LARGE',
          `The archive inflates to more than ${Math.round(limits.maxInflatedBytes / 1024 / 1024)} MB`,
        );
      }
      if (
        entry.uncompressedSize > limits.ratioFloorBytes &&
        entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio
      ) {
        throw new ExtractError(
          'TOO_LARGE',
          `The archive entry ${entry.fileName} inflates ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times (a zip bomb); at most ${limits.maxRatio} is accepted`,
        );
      }
      // Some writers separate folders with backslashes; the readers look parts up by forward-slash names.
      entries.set(entry.fileName.replace(/\\/g, '/'), entry);
    }
    // Entries can share compressed bytes (overlapping-file bombs), so the archive as a whole is checked too.
    if (inflated > limits.ratioFloorBytes && inflated / Math.max(1, zip.fileSize) > limits.maxRatio) {
      throw new ExtractError(
        'TOO_LARGE',
        `The archive inflates ${Math.round(inflated / zip.fileSize)} times its size (a zip bomb)`,
      );
    }
    return archiveOf(zip, entries);
  } catch (err) {
    zip.close();
    if (err instanceof ExtractError) throw err;
    throw new ExtractError('CORRUPT', `The zip archive is damaged: ${(err as Error).message}`);
  }
}

const OPEN_OPTIONS: yauzl.Options = {
  lazyEntries: true,
  autoClose: false,
  strictFileNames: false,
  validateEntrySizes: true,
};

async function openZip(file: string): Promise<yauzl.ZipFile> {
  try {
    return await yauzl.openPromise(file, OPEN_OPTIONS);
  } catch (err) {
    const corrected = await openWithCommentLengthCorrected(file, OPEN_OPTIONS).catch(() => undefined);
    if (corrected) return corrected;
    throw err;
  }
}

function archiveOf(zip: yauzl.ZipFile, entries: Map<string, yauzl.Entry>): ZipArchive {
  const byLowerName = new Map([...entries.keys()].map((name) => [name.toLowerCase(), name]));
  const find = (name: string) => {
    const decoded = safeDecode(name);
    for (const candidate of [name, decoded]) {
      const entry = entries.get(candidate) ?? entries.get(byLowerName.get(candidate.toLowerCase()) ?? '');
      if (entry) return entry;
    }
    return undefined;
  };
  return {
    names: [...entries.keys()],
    async read(name) {
      const entry = find(name);
      if (!entry) throw new ExtractError('CORRUPT', `The archive has no entry ${name}`);
      try {
        return await buffer(await zip.openReadStreamPromise(entry));
      } catch (err) {
        throw new ExtractError('CORRUPT', `The archive entry ${name} is damaged: ${(err as Error).message}`);
      }
    },
    close: () => zip.close(),
  };
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CountingStream } from './counting-stream.ts';
import { openInNewFolders, removeEmptyFolders } from './object-folders.ts';
import { assertSafeKey, type DownloadOptions, type ObjectInfo, type ObjectStore } from './object-store.ts';

export type SignedOperation = 'put' | 'get';

export interface SignedRequest {
  key?: unknown;
  expires?: unknown;
  sig?: unknown;
  filename?: unknown;
  type?: unknown;
  disposition?: unknown;
}

/** What a verified URL serves: its key and, for a GET, how (`DownloadOptions` as signed). */
export type SignatureCheck =
  ({ ok: true; key: string } & DownloadOptions) | { ok: false; reason: 'invalid' | 'expired' };

/** A one-time write found the key already written, or another writer still at it. */
export class ObjectExistsError extends Error {
  constructor(readonly inFlight: boolean) {
    super(inFlight ? 'Another upload to this key is in progress' : 'The object already exists');
    this.name = 'ObjectExistsError';
  }
}

const PARTIAL = '.partial';

export interface LocalStore extends ObjectStore {
  readonly driver: 'local';
  /**
   * Writes `key` only if nothing has: the first writer claims `<key>.partial` exclusively and links it into
   * place without replacing, so a second writer (concurrent or later) gets ObjectExistsError. On any failure
   * (abort, error, limit) the partial file is closed and removed.
   */
  putOnce(key: string, body: Readable): Promise<{ size: number }>;
  /** Removes `*.partial` files not written to for `olderThanMs`: uploads whose writer died. */
  sweepPartials(olderThanMs: number): Promise<number>;
  /** Checks a signed URL's query against the operation it is used for. */
  verify(op: SignedOperation, query: SignedRequest): SignatureCheck;
}

export interface LocalStoreOptions {
  rootDir: string;
  /** Base URL of the api that serves `/storage/put` and `/storage/get`. */
  publicUrl: string;
  signingSecret: string;
  now?: () => number;
}

export function createLocalStore(options: LocalStoreOptions): LocalStore {
  const { rootDir, signingSecret } = options;
  const now = options.now ?? Date.now;
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };
  // The type and disposition are signed only when set, so URLs signed before they existed still verify.
  const sign = (op: SignedOperation, key: string, expires: number, filename = '', type = '', disposition = '') =>
    createHmac('sha256', signingSecret)
      .update(`${op}\n${key}\n${expires}\n${filename}${type || disposition ? `\n${type}\n${disposition}` : ''}`)
      .digest('hex');
  const signedUrl = (op: SignedOperation, key: string, ttlSeconds: number, download: DownloadOptions = {}) => {
    // Rounded up, so a URL lives at least `ttlSeconds` (a 1-second URL rounded down could be dead on arrival).
    const expires = Math.ceil(now() / 1000) + ttlSeconds;
    const params = new URLSearchParams({ key, expires: String(expires) });
    if (download.filename) params.set('filename', download.filename);
    if (download.contentType) params.set('type', download.contentType);
    if (download.disposition) params.set('disposition', download.disposition);
    params.set('sig', sign(op, key, expires, download.filename, download.contentType, download.disposition));
    return `${options.publicUrl}/storage/${op}?${params}`;
  };

  return {
    driver: 'local',
    async put(key, body) {
      const file = fileOf(key);
      // Written aside and renamed, so a reader never sees half an object and a failed upload leaves nothing.
      const tmp = `${file}.${randomBytes(6).toString('hex')}${PARTIAL}`;
      const counter = new CountingStream();
      try {
        const handle = await openInNewFolders(tmp, 'w');
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, counter, handle.createWriteStream());
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true });
        await removeEmptyFolders(tmp, rootDir);
        throw err;
      }
      return { size: counter.bytes };
    },
    async putOnce(key, body) {
      const file = fileOf(key);
      if (await exists(file)) throw new ObjectExistsError(false);
      const tmp = `${file}${PARTIAL}`;
      let handle;
      try {
        handle = await openInNewFolders(tmp, 'wx');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new ObjectExistsError(true);
        throw err;
      }
      const counter = new CountingStream();
      let written = false;
      try {
        await pipeline(body, counter, handle.createWriteStream());
        // link() never replaces: a file that appeared meanwhile wins and this write is refused.
        await fs.link(tmp, file).catch((err: NodeJS.ErrnoException) => {
          throw err.code === 'EEXIST' ? new ObjectExistsError(false) : err;
        });
        written = true;
      } finally {
        await handle.close().catch(() => {});
        await fs.rm(tmp, { force: true });
        if (!written) await removeEmptyFolders(tmp, rootDir);
      }
      return { size: counter.bytes };
    },
    async sweepPartials(olderThanMs) {
      const cutoff = now() - olderThanMs;
      let removed = 0;
      const entries = await fs.readdir(rootDir, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile() || !entry.name.endsWith(PARTIAL)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const info = await fs.stat(file).catch(() => undefined);
        if (info && info.mtimeMs < cutoff) {
          await fs.rm(file, { force: true });
          await removeEmptyFolders(file, rootDir);
          removed++;
        }
      }
      return removed;
    },
    async get(key) {
      const file = fileOf(key);
      await fs.access(file);
      return createReadStream(file);
    },
    async head(key, length) {
      const handle = await fs.open(fileOf(key), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async stat(key): Promise<ObjectInfo | null> {
      try {
        const info = await fs.stat(fileOf(key));
        return info.isFile() ? { size: info.size } : null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => fs.rm(fileOf(key), { force: true })));
      for (const key of keys) await removeEmptyFolders(fileOf(key), rootDir);
    },
    async presignPut(key, ttlSeconds) {
      return signedUrl('put', key, ttlSeconds);
    },
    async presignGet(key, ttlSeconds, opts = {}) {
      return signedUrl('get', key, ttlSeconds, opts);
    },
    async ping() {
      await fs.mkdir(rootDir, { recursive: true });
      await fs.access(rootDir, fs.constants.W_OK);
    },
    verify(op, query) {
      const { key, expires, sig } = query;
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      const filename = text(query.filename);
      const type = text(query.type);
      const disposition = text(query.disposition);
      if (disposition !== '' && disposition !== 'inline' && disposition !== 'attachment')
        return { ok: false, reason: 'invalid' };
      if (typeof key !== 'string' || typeof expires !== 'string' || typeof sig !== 'string') {
        return { ok: false, reason: 'invalid' };
      }
      // Only as signed: `Number()` would also take "1700000000.0", " 1700000000" or "0x6553f100" for the same expiry.
      if (!/^[0-9]{1,15}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return { ok: false, reason: 'invalid' };
      const expiresAt = Number(expires);
      try {
        assertSafeKey(key);
      } catch {
        return { ok: false, reason: 'invalid' };
      }
      const expected = Buffer.from(sign(op, key, expiresAt, filename, type, disposition), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return { ok: false, reason: 'invalid' };
      if (expiresAt * 1000 < now()) return { ok: false, reason: 'expired' };
      return {
        ok: true,
        key,
        ...(filename ? { filename } : {}),
        ...(type ? { contentType: type } : {}),
        ...(disposition ? { disposition } : {}),
      };
    },
  };
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

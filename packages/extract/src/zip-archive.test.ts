import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openZipArchive, ZIP_LIMITS } from './zip-archive.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-zip-test-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function zipFile(name: string, entries: Record<string, Buffer | string>): Promise<string> {
  const zip = new JSZip();
  for (const [entry, body] of Object.entries(entries)) zip.file(entry, body);
  const file = path.join(dir, name);
  await fs.writeFile(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
  return file;
}

describe('openZipArchive', () => {
  it('reads the entries of an ordinary archive', async () => {
    const file = await zipFile('ok.zip', { 'a.txt': 'alpha', 'dir/b.txt': 'beta' });
    const archive = await openZipArchive(file);
    try {
      expect(archive.names).toEqual(expect.arrayContaining(['a.txt', 'dir/b.txt']));
      expect((await archive.read('dir/b.txt')).toString()).toBe('beta');
      await expect(archive.read('missing.txt')).rejects.toMatchObject({ code: 'CORRUPT' });
    } finally {
      archive.close();
    }
  });

  it('refuses too many entries, too many declared bytes and a bomb-like ratio from the directory alone', async () => {
    const many = await zipFile(
      'many.zip',
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, 'x'])),
    );
    await expect(openZipArchive(many, { ...ZIP_LIMITS, maxEntries: 10 })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: /12 files/,
    });

    const big = await zipFile('big.zip', { 'a.bin': Buffer.alloc(300_000, 7), 'b.bin': Buffer.alloc(300_000, 9) });
    await expect(openZipArchive(big, { ...ZIP_LIMITS, maxInflatedBytes: 500_000 })).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });

    const dense = await zipFile('dense.zip', { 'zeros.bin': Buffer.alloc(4 * 1024 * 1024) });
    await expect(openZipArchive(dense)).rejects.toMatchObject({ code: 'TOO_LARGE', message: /zip bomb/ });
    // The same ratio below the floor is an ordinary small file.
    const small = await zipFile('small.zip', { 'spaces.css': Buffer.alloc(100_000, 0x20) });
    (await openZipArchive(small)).close();
  });

  it('refuses an entry that inflates past the size its directory declared', async () => {
    const file = await zipFile('liar.zip', { 'data.txt': 'a'.repeat(5000) });
    const bytes = await fs.readFile(file);
    // Central directory header: signature 0x02014b50; uncompressed size at offset 24.
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(100, central + 24);
    await fs.writeFile(file, bytes);
    const archive = await openZipArchive(file);
    try {
      await expect(archive.read('data.txt')).rejects.toMatchObject({ code: 'CORRUPT' });
    } finally {
      archive.close();
    }
  });

  it('reads a zip whose end record miscounts its comment, as Office and Apache POI do, and still refuses a bomb', async () => {
    // The end-of-central-directory record is the last 22 bytes of a zip without a comment; its last two bytes are
    // the comment's length.
    const withEnd = async (name: string, entries: Record<string, Buffer | string>, change: (zip: Buffer) => Buffer) => {
      const file = await zipFile(name, entries);
      await fs.writeFile(file, change(await fs.readFile(file)));
      return file;
    };
    // A line feed after the record, which its comment length (0) does not count: three decks of POI's corpus.
    const trailing = await withEnd('trailing.zip', { 'a.txt': 'alpha' }, (zip) =>
      Buffer.concat([zip, Buffer.from('\n')]),
    );
    // A comment length of 5 with no comment after it.
    const overlong = await withEnd('overlong.zip', { 'a.txt': 'alpha' }, (zip) => {
      zip.writeUInt16LE(5, zip.length - 2);
      return zip;
    });
    for (const file of [trailing, overlong]) {
      const archive = await openZipArchive(file);
      try {
        expect(archive.names).toEqual(['a.txt']);
        expect((await archive.read('a.txt')).toString()).toBe('alpha');
      } finally {
        archive.close();
      }
    }

    const bomb = await withEnd('bomb-trailing.zip', { 'zeros.bin': Buffer.alloc(4 * 1024 * 1024) }, (zip) =>
      Buffer.concat([zip, Buffer.from('\n')]),
    );
    await expect(openZipArchive(bomb)).rejects.toMatchObject({ code: 'TOO_LARGE', message: /zip bomb/ });
    const many = await withEnd(
      'many-trailing.zip',
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, 'x'])),
      (zip) => Buffer.concat([zip, Buffer.from('\n')]),
    );
    await expect(openZipArchive(many, { ...ZIP_LIMITS, maxEntries: 10 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('calls a file that is no zip CORRUPT', async () => {
    const file = path.join(dir, 'garbage.zip');
    await fs.writeFile(file, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(500, 1)]));
    await expect(openZipArchive(file)).rejects.toMatchObject({ code: 'CORRUPT' });
  });
});

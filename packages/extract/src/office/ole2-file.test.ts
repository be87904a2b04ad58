import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import CFB from 'cfb';
import { describe, expect, it } from 'vitest';
import { extractTextFile } from '../text.ts';
import { ExtractError } from '../types.ts';
import { readOle2 } from './ole2-file.ts';

const POI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/office/poi');

function ole2(streams: Record<string, Buffer>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(container, name, content);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

const fib = (encrypted: boolean) => {
  const bytes = Buffer.alloc(64);
  bytes.writeUInt16LE(0xa5ec, 0);
  bytes.writeUInt16LE(encrypted ? 0x0100 : 0, 0x0a);
  return bytes;
};
const record = (type: number, body: Buffer) =>
  Buffer.concat([Buffer.from([type & 0xff, type >> 8, body.length & 0xff, body.length >> 8]), body]);
const workbook = (encrypted: boolean) =>
  Buffer.concat([
    record(0x0809, Buffer.alloc(16)),
    ...(encrypted ? [record(0x002f, Buffer.alloc(6))] : []),
    record(0x000a, Buffer.alloc(0)),
  ]);
const currentUser = (token: number) => {
  const bytes = Buffer.alloc(24);
  bytes.writeUInt32LE(20, 8);
  bytes.writeUInt32LE(token, 12);
  return bytes;
};

describe('reading a whole OLE2 file', () => {
  it('names the format by the streams at its root, not by an embedded object’s', () => {
    const workbookWithDeck = ole2({ Workbook: workbook(false), 'MBD0001/PowerPoint Document': Buffer.alloc(16) });
    expect(readOle2(workbookWithDeck)).toEqual({ mimeType: 'application/vnd.ms-excel', encrypted: false });
    expect(readOle2(ole2({ WordDocument: fib(false), '1Table': Buffer.alloc(8) }))?.mimeType).toBe(
      'application/msword',
    );
  });

  it('sees the encryption mark of Word (the FIB bit), Excel (FILEPASS) and PowerPoint (Current User)', () => {
    expect(readOle2(ole2({ WordDocument: fib(true) }))?.encrypted).toBe(true);
    expect(readOle2(ole2({ WordDocument: fib(false) }))?.encrypted).toBe(false);
    expect(readOle2(ole2({ Workbook: workbook(true) }))?.encrypted).toBe(true);
    expect(readOle2(ole2({ Workbook: workbook(false) }))?.encrypted).toBe(false);
    expect(
      readOle2(ole2({ 'PowerPoint Document': Buffer.alloc(8), 'Current User': currentUser(0xf3d1c4df) }))?.encrypted,
    ).toBe(true);
    expect(
      readOle2(ole2({ 'PowerPoint Document': Buffer.alloc(8), 'Current User': currentUser(0xe391c05f) }))?.encrypted,
    ).toBe(false);
  });

  it('reads nothing of a damaged container', () => {
    expect(readOle2(ole2({ WordDocument: fib(false) }).subarray(0, 700))).toBeUndefined();
  });

  it('ends a password-protected Word 97 document of POI’s bug corpus ENCRYPTED, not CORRUPT', async () => {
    const outputDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ole2-test-'));
    try {
      const failure = await extractTextFile(path.join(POI, 'PasswordProtected.doc'), {
        extractImages: false,
        outputDir,
      }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(ExtractError);
      expect(failure).toMatchObject({ code: 'ENCRYPTED' });
    } finally {
      await fs.rm(outputDir, { recursive: true, force: true });
    }
  });
});

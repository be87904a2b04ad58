import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { makeOle2 } from '@quire/testkit';
import { sniff, SNIFF_BYTES } from '../sniff.ts';
import { officeFormatOfOle2, ole2DirectoryInHead, ole2StreamNames } from './sniff-office.ts';

/** A 512-byte directory sector holding up to four entries. */
function directorySector(names: [string, number][]): Buffer {
  const sector = Buffer.alloc(512, 0);
  names.forEach(([name, type], index) => {
    const at = index * 128;
    sector.write(`${name}\0`, at, 'utf16le');
    sector.writeUInt16LE((name.length + 1) * 2, at + 64);
    sector[at + 66] = type;
  });
  return sector;
}

/**
 * An OLE2 file whose directory is two sectors: the first right after the FAT, the second after `gap` sectors of
 * data. With a gap of eight or more the second lies beyond the head the api sniffs (4,100 bytes), as in a real
 * document with many streams (POI's `PngPicture.doc`).
 */
function ole2WithDirectory(first: string[], second: string[], gap: number): Buffer {
  const header = Buffer.from(makeOle2([]).subarray(0, 512));
  header.writeUInt32LE(1, 0x30); // the directory starts at sector 1, the FAT is sector 0
  header.writeUInt32LE(0, 0x4c);
  const secondAt = 2 + gap;
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0);
  fat.writeUInt32LE(secondAt, 4);
  for (let sector = 2; sector < secondAt; sector++)
    fat.writeUInt32LE(sector + 1 < secondAt ? sector + 1 : 0xfffffffe, sector * 4);
  fat.writeUInt32LE(0xfffffffe, secondAt * 4);
  return Buffer.concat([
    header,
    fat,
    directorySector([['Root Entry', 5], ...first.map((name): [string, number] => [name, 2])]),
    Buffer.alloc(gap * 512, 0x41),
    directorySector(second.map((name) => [name, 2])),
  ]);
}

async function ooxmlPackage(entries: [string, string | Buffer][]): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, body] of entries) zip.file(name, body);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

describe('sniffing the office files of a bug corpus', () => {
  it('reads OLE2 stream names without case (WORKBOOK, BOOK) and knows PowerPoint 4 (PP40)', () => {
    expect(officeFormatOfOle2(['Root Entry', 'WORKBOOK'])).toBe('application/vnd.ms-excel');
    expect(officeFormatOfOle2(['Root Entry', 'BOOK'])).toBe('application/vnd.ms-excel');
    expect(officeFormatOfOle2(['Root Entry', 'PP40'])).toBe('application/vnd.ms-powerpoint');
    expect(officeFormatOfOle2(['Root Entry', 'Property'])).toBeUndefined();
  });

  it('leaves an OLE2 file whose directory goes on past the head to the reader, and refuses one whose whole directory it saw', async () => {
    const far = ole2WithDirectory(['\u0001Ole', '1Table', '\u0001CompObj'], ['ObjectPool', 'WordDocument'], 10);
    expect(ole2StreamNames(far.subarray(0, SNIFF_BYTES))).toEqual([
      'Root Entry',
      '\u0001Ole',
      '1Table',
      '\u0001CompObj',
    ]);
    expect(ole2DirectoryInHead(far.subarray(0, SNIFF_BYTES))).toBe(false);
    expect(await sniff(far.subarray(0, SNIFF_BYTES))).toMatchObject({ supported: true, mimeType: 'application/x-cfb' });
    // The reader, given the whole file, finds the Word stream.
    expect(officeFormatOfOle2(ole2StreamNames(far))).toBe('application/msword');

    const near = ole2WithDirectory(['\u0005SummaryInformation'], ['Property'], 2);
    expect(ole2DirectoryInHead(near)).toBe(true);
    expect(await sniff(near)).toMatchObject({ supported: false, mimeType: 'application/x-cfb' });
  });

  it('takes Word 1-2 and Excel 2-4 files, older than OLE2, for the legacy formats LibreOffice reads', async () => {
    const word2 = Buffer.concat([Buffer.from([0xdb, 0xa5, 0x2d, 0x00, 0x31, 0x40, 0x09, 0x04]), Buffer.alloc(600)]);
    expect(await sniff(word2)).toMatchObject({ mimeType: 'application/msword' });
    const biff3 = Buffer.concat([Buffer.from([0x09, 0x02, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00]), Buffer.alloc(600)]);
    expect(await sniff(biff3)).toMatchObject({ mimeType: 'application/vnd.ms-excel' });
    const notBiff = Buffer.concat([Buffer.from([0x09, 0x02, 0x06, 0x00, 0x00, 0x00, 0x77, 0x00]), Buffer.alloc(600)]);
    expect(await sniff(notBiff)).toMatchObject({ supported: false });
  });

  it('knows a package by entries named with backslashes and in lower case, a binary workbook, and one whose parts come after a thumbnail', async () => {
    const backslashes = await ooxmlPackage([
      ['[content_types].xml', '<Types/>'],
      ['xl\\_rels\\workbook.xml.rels', '<Relationships/>'],
      ['xl\\workbook.xml', '<workbook/>'],
    ]);
    expect((await sniff(backslashes)).mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );

    const xlsb = await ooxmlPackage([
      ['[Content_Types].xml', '<Types/>'],
      ['_rels/.rels', '<Relationships/>'],
      ['xl/workbook.bin', Buffer.alloc(40)],
    ]);
    expect((await sniff(xlsb)).mimeType).toBe('application/vnd.ms-excel.sheet.binary.macroenabled.12');

    const thumbnailFirst = await ooxmlPackage([
      ['docProps/thumbnail.jpeg', Buffer.alloc(6000, 7)],
      ['ppt/presentation.xml', '<presentation/>'],
    ]);
    expect(await sniff(thumbnailFirst.subarray(0, SNIFF_BYTES))).toMatchObject({
      supported: true,
      mimeType: 'application/x-ooxml-package',
    });
  });
});

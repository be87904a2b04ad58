import CFB from 'cfb';
import { officeFormatOfOle2 } from './sniff-office.ts';

/** What a whole OLE2 file is: its office format (a MIME type) by its top-level streams, and whether it bears an encryption mark. */
export interface Ole2Reading {
  mimeType: string | undefined;
  encrypted: boolean;
}

const FILEPASS = 0x002f;
const BIFF_EOF = 0x000a;
const ENCRYPTED_CURRENT_USER = 0xf3d1c4df;

/**
 * Reads an OLE2 container with `cfb` and names its format by the streams at its root only (an Excel file with a
 * deck embedded is a workbook). A password-protected 97-2003 file is told by its own mark: Word's `fEncrypted`
 * bit in the FIB, Excel's FILEPASS record before the workbook's other records, PowerPoint's encrypted token in
 * `Current User`. Undefined for a file `cfb` cannot read (damaged): the caller falls back on the names alone.
 */
export function readOle2(bytes: Buffer): Ole2Reading | undefined {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(bytes, { type: 'buffer' });
  } catch {
    return undefined;
  }
  const top = new Map<string, Buffer>();
  container.FullPaths.forEach((fullPath, index) => {
    const parts = fullPath.split('/').filter(Boolean);
    const entry = container.FileIndex[index]!;
    if (parts.length === 2 && entry.type === 2) top.set(parts[1]!.toLowerCase(), Buffer.from(entry.content ?? []));
  });
  const mimeType = officeFormatOfOle2([...top.keys()]);
  return { mimeType, encrypted: isEncrypted(top) };
}

function isEncrypted(streams: Map<string, Buffer>): boolean {
  const word = streams.get('worddocument');
  if (word && word.length > 0x0b && (word[0x0b]! & 0x01) !== 0) return true;
  const workbook = streams.get('workbook') ?? streams.get('book');
  if (workbook && hasFilePass(workbook)) return true;
  if (streams.has('encryptedsummary')) return true;
  const currentUser = streams.get('current user');
  return (
    currentUser !== undefined && currentUser.length >= 16 && currentUser.readUInt32LE(12) === ENCRYPTED_CURRENT_USER
  );
}

/** FILEPASS comes right after the first BOF, among the workbook's first records. */
function hasFilePass(workbook: Buffer): boolean {
  for (let at = 0, records = 0; at + 4 <= workbook.length && records < 64; records++) {
    const type = workbook.readUInt16LE(at);
    if (type === FILEPASS) return true;
    if (type === BIFF_EOF) return false;
    at += 4 + workbook.readUInt16LE(at + 2);
  }
  return false;
}

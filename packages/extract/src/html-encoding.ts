import { MIMEType } from 'node:util';
import iconv from 'iconv-lite';

/** How far into a page its `<meta>` charset declaration is looked for (the HTML standard's prescan reads 1024 bytes; pages put long scripts first). */
const PRESCAN_BYTES = 8192;

const BOMS: [Buffer, string][] = [
  [Buffer.from([0xef, 0xbb, 0xbf]), 'utf-8'],
  [Buffer.from([0xff, 0xfe]), 'utf-16le'],
  [Buffer.from([0xfe, 0xff]), 'utf-16be'],
];

/** Labels that name a single-byte Western encoding, which a page often declares while its bytes are UTF-8. */
const LEGACY_WESTERN = /^(iso-?8859-1|latin-?1|windows-1252|cp1252|us-ascii|ascii)$/i;

/**
 * The text of a page's bytes, as the HTML standard's encoding sniffing orders it. A byte-order mark decides; then the
 * charset the server declared (`transportCharset`, from its Content-Type); then the charset the page's `<meta>`
 * declares (a page saved from the web keeps no HTTP header). Bytes which are valid UTF-8 with non-ASCII characters
 * are UTF-8 whatever Western single-byte encoding either claims (servers default to ISO-8859-1). Undeclared: UTF-8
 * when the bytes are valid UTF-8, else windows-1252, the standard's default for a legacy page.
 */
export function decodeHtml(bytes: Buffer, transportCharset?: string): { text: string; encoding: string } {
  const meta = declaredCharset(bytes.subarray(0, PRESCAN_BYTES));
  const declared = [transportCharset, meta].find((label) => label !== undefined && iconv.encodingExists(label));
  const decoded = decodeDeclared(bytes, declared);
  if (decoded) return decoded;
  const utf8 = validUtf8(bytes);
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  // A page that says UTF-8 but has stray bytes of another encoding: UTF-8 with replacement characters would lose
  // every accented letter of a legacy page, which is what such pages usually are.
  return declared && /^utf-?8$/i.test(declared) && mostlyUtf8(bytes)
    ? { text: bytes.toString('utf8'), encoding: 'utf-8' }
    : { text: iconv.decode(bytes, 'windows-1252'), encoding: 'windows-1252' };
}

/**
 * The bytes decoded by their byte-order mark, else by a declared charset that iconv knows, unless the declaration is
 * UTF-8 (left to the caller's checks), UTF-16 without a mark, or a Western single-byte one over bytes that are valid
 * UTF-8 with non-ASCII characters; undefined when neither decides.
 */
export function decodeDeclared(
  bytes: Buffer,
  declared: string | undefined,
): { text: string; encoding: string } | undefined {
  for (const [bom, encoding] of BOMS) {
    if (bytes.subarray(0, bom.length).equals(bom)) return { text: iconv.decode(bytes, encoding), encoding };
  }
  if (!declared || !iconv.encodingExists(declared) || /^utf-?(8|16)/i.test(declared)) return undefined;
  const multibyteUtf8 = bytes.some((b) => b >= 0x80) && validUtf8(bytes) !== undefined;
  if (multibyteUtf8 && LEGACY_WESTERN.test(declared)) return undefined;
  return { text: iconv.decode(bytes, declared), encoding: declared.toLowerCase() };
}

function validUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** More well-formed multi-byte sequences than stray high bytes. */
function mostlyUtf8(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  let replaced = 0;
  let multibyte = 0;
  for (const ch of text) {
    if (ch === '\ufffd') replaced++;
    else if (ch.charCodeAt(0) >= 0x80) multibyte++;
  }
  return multibyte > replaced;
}

/** The charset a `<meta charset>` or `<meta http-equiv="content-type" content="...; charset=...">` names. */
export function declaredCharset(head: Buffer): string | undefined {
  const ascii = head.toString('latin1');
  for (const meta of ascii.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = meta[0];
    const direct = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag);
    if (direct) return direct[1];
  }
  return undefined;
}

/** The `charset` parameter of a MIME type (`text/html; charset=koi8-r`), if it has a well-formed one. */
export function charsetOf(mimeType: string | undefined): string | undefined {
  if (!mimeType) return undefined;
  try {
    return new MIMEType(mimeType).params.get('charset')?.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A sniffed text type with the charset its sender declared (`text/html; charset=koi8-r`), kept with the original so
 * that every run decodes its bytes the same way; any other type as it is.
 */
export function withDeclaredCharset(sniffedMimeType: string, declaredType: string | undefined): string {
  const charset = charsetOf(declaredType);
  return charset && sniffedMimeType.startsWith('text/') ? `${sniffedMimeType}; charset=${charset}` : sniffedMimeType;
}

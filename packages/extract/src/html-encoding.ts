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
 * The text of a page's bytes. A byte-order mark decides; then the charset its `<meta>` declares (a page saved from
 * the web keeps no HTTP header), except that bytes which are valid UTF-8 with non-ASCII characters are UTF-8 whatever
 * Western single-byte encoding the page claims; then UTF-8 when the bytes are valid UTF-8, else windows-1252, the
 * HTML standard's default for an undeclared legacy page.
 */
export function decodeHtml(bytes: Buffer): { text: string; encoding: string } {
  for (const [bom, encoding] of BOMS) {
    if (bytes.subarray(0, bom.length).equals(bom)) return { text: iconv.decode(bytes, encoding), encoding };
  }
  const utf8 = validUtf8(bytes);
  const declared = declaredCharset(bytes.subarray(0, PRESCAN_BYTES));
  if (declared && iconv.encodingExists(declared) && !/^utf-?8$/i.test(declared)) {
    const multibyteUtf8 = utf8 !== undefined && bytes.some((b) => b >= 0x80);
    if (!(multibyteUtf8 && LEGACY_WESTERN.test(declared)) && !/^utf-?16/i.test(declared)) {
      return { text: iconv.decode(bytes, declared), encoding: declared.toLowerCase() };
    }
  }
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  // A page that says UTF-8 but has stray bytes of another encoding: UTF-8 with replacement characters would lose
  // every accented letter of a legacy page, which is what such pages usually are.
  return declared && /^utf-?8$/i.test(declared) && mostlyUtf8(bytes)
    ? { text: bytes.toString('utf8'), encoding: 'utf-8' }
    : { text: iconv.decode(bytes, 'windows-1252'), encoding: 'windows-1252' };
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

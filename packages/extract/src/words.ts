/** A letter of a script written right to left. */
export const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

const RIGHT_TO_LEFT_LETTERS = new RegExp(RIGHT_TO_LEFT.source, 'gu');

/** Whether most of a text's letters are of a script written right to left (a line of Arabic with a Latin name in it). */
export function readsRightToLeft(text: string): boolean {
  const rightToLeft = text.match(RIGHT_TO_LEFT_LETTERS)?.length ?? 0;
  return rightToLeft > 0 && rightToLeft * 2 > (text.match(/\p{L}/gu)?.length ?? 0);
}

/**
 * What a word is: letters and digits, joined inside by an apostrophe or a hyphen. The functions below scan for
 * it code unit by code unit instead of running this pattern: over a 600-page book the pattern and the five
 * replacements of `normalizeText` cost as much as reading 30 of its pages with PDFium.
 */
export const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Per BMP code unit: 0 not looked up yet, 1 a letter or digit, 2 not. */
const bmpClass = new Uint8Array(0x10000);
const astralClass = new Map<number, boolean>();

function isLetterOrDigit(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  const known = bmpClass[code];
  if (known) return known === 1;
  const is = LETTER_OR_DIGIT.test(String.fromCharCode(code));
  bmpClass[code] = is ? 1 : 2;
  return is;
}

/** Code units of the letter or digit at `i` (2 for a surrogate pair), 0 when there is none (or `i` is past the end). */
function letterOrDigitAt(text: string, i: number): number {
  if (i >= text.length) return 0;
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff) return isLetterOrDigit(code) ? 1 : 0;
  const low = text.charCodeAt(i + 1);
  if (!(low >= 0xdc00 && low <= 0xdfff)) return 0;
  const point = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  let is = astralClass.get(point);
  if (is === undefined) astralClass.set(point, (is = LETTER_OR_DIGIT.test(String.fromCodePoint(point))));
  return is ? 2 : 0;
}

const asciiLetterOrDigit = Uint8Array.from({ length: 0x80 }, (_, code) => (isLetterOrDigit(code) ? 1 : 0));
const isJoiner = (code: number) => code === 0x27 || code === 0x2019 || code === 0x2d;

/** The number of `WORD`s in `text`. */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    const width = code < 0x80 ? asciiLetterOrDigit[code]! : letterOrDigitAt(text, i);
    if (width) {
      if (!inWord) count++;
      inWord = true;
      i += width;
    } else {
      // A joiner continues the word only when a letter or digit follows it.
      inWord = inWord && isJoiner(text.charCodeAt(i)) && letterOrDigitAt(text, i + 1) > 0;
      i++;
    }
  }
  return count;
}

const SPACE = 1;
const NEWLINE = 2;
/**
 * Per code unit below 0xa1: SPACE for what `normalizeText` collapses into a space (blanks, and the control
 * characters PDFs put where a font maps a separator), NEWLINE for line ends, 0 for what it keeps as it is.
 */
const kinds = new Uint8Array(0xa1);
for (let code = 0; code <= 0x1f; code++) kinds[code] = SPACE;
kinds[0x0a] = NEWLINE;
kinds[0x0d] = NEWLINE;
kinds[0x20] = SPACE;
kinds[0x7f] = SPACE;
kinds[0xa0] = SPACE;

/**
 * Collapses runs of spaces and blank lines that extractors leave behind, keeping paragraph breaks: line ends
 * become `\n`, control characters and blanks a single space, spaces next to a line end go, more than one blank
 * line becomes one, and the ends are trimmed.
 */
export function normalizeText(text: string): string {
  // UTF-16LE bytes, written out whatever the machine's byte order, decoded once at the end.
  const out = Buffer.allocUnsafe(text.length * 2);
  let length = 0;
  const put = (code: number) => {
    out[length++] = code & 0xff;
    out[length++] = code >> 8;
  };
  let space = false;
  let newlines = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 0xa1 ? kinds[code] : 0;
    if (kind === NEWLINE) {
      if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      newlines++;
      space = false;
    } else if (kind === SPACE) {
      if (newlines === 0) space = true;
    } else {
      if (length > 0) {
        if (newlines > 0) put(0x0a);
        if (newlines > 1) put(0x0a);
        if (newlines === 0 && space) put(0x20);
      }
      put(code);
      space = false;
      newlines = 0;
    }
  }
  // Other Unicode blanks (an em space, a byte order mark) are kept inside the text, and trimmed at its ends.
  return out.toString('utf16le', 0, length).trim();
}

/** PDFium's mark for a hyphen it found at a line's end (it writes it without the line break). */
export const PDFIUM_HYPHEN = '\ufffe';

const LINE_END_HYPHEN = /(\p{L}+)[-\u00ad\ufffe]\s*$/u;
const LINE_START_WORD = /^\s*(\p{Ll}[\p{L}]*)/u;
const HYPHENATED_WORD = /\p{L}+-\p{L}+/gu;

/**
 * The hyphenated words a document writes inside its lines ("well-known" in the middle of a line): a word broken
 * at a line's end keeps its hyphen when the document writes it that way elsewhere.
 */
export class HyphenatedWords {
  private readonly words = new Set<string>();

  add(line: string): void {
    if (!line.includes('-')) return;
    for (const match of line.matchAll(HYPHENATED_WORD)) this.words.add(match[0].toLowerCase());
  }

  has(word: string): boolean {
    return this.words.has(word.toLowerCase());
  }
}

/**
 * Joins two lines where the first ends with a word broken by a hyphen and the second goes on in lower case:
 * the hyphen is dropped ("selec-" "tive" is "selective") unless the document writes the word with its hyphen
 * elsewhere ("well-" "known" stays "well-known" when "well-known" stands inside a line). Returns undefined when
 * the lines are not a broken word (the second starts with a capital, a digit or a symbol).
 */
export function joinBrokenWord(first: string, second: string, known: HyphenatedWords): string | undefined {
  // The pattern is tried at every position of `first` (a paragraph so far, when the layout joins its lines):
  // a look at its last character first keeps that to the lines that end with a hyphen.
  let last = first.length - 1;
  while (last >= 0 && (first.charCodeAt(last) <= 0x20 || first.charCodeAt(last) === 0xa0)) last--;
  const code = first.charCodeAt(last);
  if (code !== 0x2d && code !== 0xad && code !== 0xfffe) return undefined;
  const end = LINE_END_HYPHEN.exec(first);
  if (!end) return undefined;
  const start = LINE_START_WORD.exec(second);
  if (!start) return undefined;
  const head = first.slice(0, end.index + end[1]!.length);
  const tail = second.trimStart();
  const keepHyphen = known.has(`${end[1]}-${start[1]}`);
  return `${head}${keepHyphen ? '-' : ''}${tail}`;
}

/** Any mark PDFium left where no word went on (a line's last word, a capital after it): a plain hyphen. */
export const plainHyphens = (text: string) =>
  text.includes(PDFIUM_HYPHEN) ? text.replaceAll(PDFIUM_HYPHEN, '-') : text;

/** Lines of running text with their broken words joined, for an engine that gives only text (pdf.js). */
export function joinBrokenLines(text: string): string {
  const lines = text.split('\n');
  const known = new HyphenatedWords();
  for (const line of lines) known.add(line);
  const out: string[] = [];
  for (const line of lines) {
    const previous = out.at(-1);
    const joined = previous === undefined ? undefined : joinBrokenWord(previous, line, known);
    if (joined === undefined) out.push(line);
    else out[out.length - 1] = joined;
  }
  return plainHyphens(out.join('\n'));
}

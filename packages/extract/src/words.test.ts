import { describe, expect, it } from 'vitest';
import { countWords, normalizeText, WORD } from './words.ts';

/** What both functions are defined as, in patterns: the scanners must agree with these on any text. */
const countByPattern = (text: string) => [...text.matchAll(WORD)].length;
const normalizeByPattern = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, ' ')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

describe('normalizeText', () => {
  it('turns control characters a PDF font maps to separators into spaces and collapses blank runs', () => {
    expect(normalizeText('ěšč\u0000ĚŠČ\u0001end\r\nnext\u000b  line\n\n\n\nlast')).toBe(
      'ěšč ĚŠČ end\nnext line\n\nlast',
    );
    expect(countWords(normalizeText('two\u0000words'))).toBe(2);
  });

  it('keeps other Unicode blanks inside the text and trims them at its ends', () => {
    expect(normalizeText('\ufeff a\u2003b \u3000')).toBe('a\u2003b');
    expect(normalizeText(' \r\r\n \t x \u00a0\r\n\r\n\r\n y \n')).toBe('x\n\ny');
  });
});

describe('countWords', () => {
  it('joins letters and digits across an apostrophe or hyphen only when one follows', () => {
    expect(countWords("don't re-read it’s 2-3 a-- b 'quoted' -x")).toBe(8);
    expect(countWords('中文 𝐀𝐁 ½ Ⅻ e\u0301 😀')).toBe(5);
  });
});

describe('the scanners against the patterns', () => {
  it('agree on random text from an alphabet of the awkward cases', () => {
    const alphabet = [
      'a',
      'Z',
      '9',
      ' ',
      '\t',
      '\n',
      '\r',
      '\r\n',
      '\u0000',
      '\u0007',
      '\u000b',
      '\u000c',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u00a0',
      '\u2003',
      '\u2028',
      '\ufeff',
      '\u3000',
      "'",
      '’',
      '-',
      'é',
      'e\u0301',
      'ß',
      '中',
      '½',
      '²',
      'Ⅻ',
      '𝐀',
      '😀',
      '\ud800',
      '\udc00',
      '.',
      ',',
    ];
    // A fixed sequence (a linear congruential generator), so that a failure names a text that fails again.
    let seed = 15;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let k = next(16); k > 0; k--) text += alphabet[next(alphabet.length)];
      expect(normalizeText(text), JSON.stringify(text)).toBe(normalizeByPattern(text));
      expect(countWords(text), JSON.stringify(text)).toBe(countByPattern(text));
    }
  });
});

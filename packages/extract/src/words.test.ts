import { describe, expect, it } from 'vitest';
import { countWords, normalizeText } from './words.ts';

describe('normalizeText', () => {
  it('turns control characters a PDF font maps to separators into spaces and collapses blank runs', () => {
    expect(normalizeText('ěšč\u0000ĚŠČ\u0001end\r\nnext\u000b  line\n\n\n\nlast')).toBe(
      'ěšč ĚŠČ end\nnext line\n\nlast',
    );
    expect(countWords(normalizeText('two\u0000words'))).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { HyphenatedWords, joinBrokenLines, joinBrokenWord } from './pdf-hyphens.ts';

describe('words broken at a line end', () => {
  const none = new HyphenatedWords();

  it('joins a word PDFium marked (U+FFFE) or a hyphen before a lower-case continuation', () => {
    expect(joinBrokenWord('records a selec\ufffe', 'tive path', none)).toBe('records a selective path');
    expect(joinBrokenWord('its compila-', 'tion is', none)).toBe('its compilation is');
  });

  it('keeps the hyphen of a compound the document writes whole elsewhere', () => {
    const known = new HyphenatedWords();
    known.add('a well-known trick');
    expect(joinBrokenWord('a well-', 'known result', known)).toBe('a well-known result');
  });

  it('leaves lines alone when the next goes on with a capital, a digit or a symbol', () => {
    expect(joinBrokenWord('Jean-', 'Paul Sartre', none)).toBeUndefined();
    expect(joinBrokenWord('COVID-', '19 cases', none)).toBeUndefined();
    expect(joinBrokenWord('a list -', 'item', none)).toBeUndefined();
  });

  it('joins the lines of a text-only page, and turns a mark left at a line end into a hyphen', () => {
    expect(joinBrokenLines('the selec\ufffe\ntive path\nends with Jean\ufffe\nPaul')).toBe(
      'the selective path\nends with Jean-\nPaul',
    );
  });
});

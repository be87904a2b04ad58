import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_END, HIGHLIGHT_START } from '@quire/db';
import { highlightsOf, parseSearchQuery } from './search-query.ts';

describe('parseSearchQuery', () => {
  it('separates words, quoted phrases and exclusions, keeping the order of the words', () => {
    expect(parseSearchQuery('solar "photovoltaic cell" -wind or tidal')).toEqual({
      words: ['solar', 'photovoltaic', 'cell', 'or', 'tidal'],
      phrases: ['photovoltaic cell'],
      excluded: ['wind'],
    });
  });

  it('treats an unclosed quote as a phrase to the end, a lone minus as a word and empty quotes as nothing', () => {
    expect(parseSearchQuery('ice "glacial melt')).toEqual({
      words: ['ice', 'glacial', 'melt'],
      phrases: ['glacial melt'],
      excluded: [],
    });
    expect(parseSearchQuery('- "" -"glacial melt"')).toEqual({
      words: ['-'],
      phrases: [],
      excluded: ['glacial', 'melt'],
    });
  });
});

describe('highlightsOf', () => {
  const mark = (word: string) => `${HIGHLIGHT_START}${word}${HIGHLIGHT_END}`;

  it('gives the offsets of the marked words in the unmarked text', () => {
    const text = 'Glaciers carve valleys 🏔 and glaciers melt.';
    const marked = `${mark('Glaciers')} carve valleys 🏔 and ${mark('glaciers')} melt.`;
    const highlights = highlightsOf(text, marked);
    expect(highlights.map((h) => text.slice(h.start, h.end))).toEqual(['Glaciers', 'glaciers']);
  });

  it('gives none when the marked text is not the passage', () => {
    expect(highlightsOf('abc', `${mark('abd')}`)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { buildArticleQueries, COMMON_PAGES, halfOf, wholeTokens, type ArticlePage } from './search-articles-set.ts';

const page = (file: string, segments: string[], without: string[] = []): ArticlePage => ({
  url: `https://example.org/${file}`,
  file,
  with: segments,
  without,
  half: halfOf(file),
});

/** Pages that make "und" and "Impressum" common: each lists them, with a word of its own. */
const filler = Array.from({ length: COMMON_PAGES + 1 }, (_, i) =>
  page(`filler-${i}.html`, [`und filler${i}`], ['Impressum']),
);

describe('buildArticleQueries', () => {
  it("takes a natural query from the page's richest segment without common words, a phrase from its other one", () => {
    const queries = buildArticleQueries([
      ...filler,
      page('a.html', ['Kurz und gut', 'Der Igel und die Katze schlafen im Garten unter Impressum Laub'], ['Impressum']),
    ]).filter((q) => q.answer === 'a.html');
    expect(queries).toEqual([
      { kind: 'natural', query: 'Der Igel die Katze schlafen im', answer: 'a.html', half: halfOf('a.html') },
      { kind: 'phrase', query: '"Kurz und gut"', answer: 'a.html', half: halfOf('a.html') },
    ]);
  });

  it('drops a segment another page lists too, and makes no query of a page left with too few words', () => {
    const queries = buildArticleQueries([
      page('a.html', ['Gemeinsamer Absatz beider Seiten hier', 'Zwei Worte']),
      page('b.html', ['Gemeinsamer Absatz beider Seiten hier']),
    ]);
    expect(queries.filter((q) => q.answer === 'b.html')).toEqual([]);
    expect(queries.filter((q) => q.answer === 'a.html')).toEqual([]);
  });

  it('starts a phrase at its first uncommon word, keeps punctuation inside and drops it around', () => {
    const queries = buildArticleQueries([
      ...filler,
      page('c.html', ['Eins zwei drei vier fünf sechs sieben', 'und und (Poststempel: 03.11.2019), gilt hier.']),
    ]);
    expect(queries.find((q) => q.answer === 'c.html' && q.kind === 'phrase')?.query).toBe(
      '"Poststempel: 03.11.2019), gilt hier"',
    );
  });

  it("leaves out a segment's edge words only where the page's HTML shows them cut", () => {
    const html = '<p>Zum Zweck verfolgt, Kranke zu heilen.</p><p>Facebook zusätzliche Kosten</p>';
    expect(wholeTokens('weck verfolgt, Kranke zu heil', html)).toEqual(['verfolgt,', 'Kranke', 'zu']);
    expect(wholeTokens('Facebook zusätzliche Kosten', html)).toEqual(['Facebook', 'zusätzliche', 'Kosten']);
    expect(wholeTokens('acebook zusätzliche', html)).toEqual(['zusätzliche']);
    expect(wholeTokens('ebook zusätzliche', `${html} &bdquo;ebook zusätzliche`)).toEqual(['ebook', 'zusätzliche']);
    expect(wholeTokens('50er Jahre', `${html} 50er Jahren und 50er Jahrestag`)).toEqual(['50er']);
    expect(wholeTokens('nicht im HTML', html)).toEqual(['nicht', 'im', 'HTML']);
  });

  it('takes soft hyphens and zero-width characters out of the segments, as nobody types them', () => {
    const queries = buildArticleQueries([
      page('d.html', ['sah sich of\u00adfen\u00adbar nicht ver\u00adan\u00adlasst']),
    ]);
    expect(queries.map((q) => q.query)).toEqual([
      'sah sich offenbar nicht veranlasst',
      '"sah sich offenbar nicht veranlasst"',
    ]);
  });

  it('splits pages into two fixed halves by file name', () => {
    expect(halfOf('die-partei.net.luebeck.html')).toBe(halfOf('die-partei.net.luebeck.html'));
    const files = Array.from({ length: 200 }, (_, i) => `page-${i}.html`);
    const tuning = files.filter((f) => halfOf(f) === 'tuning').length;
    expect(tuning).toBeGreaterThan(70);
    expect(tuning).toBeLessThan(130);
  });
});

import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './html-article.ts';

const filler = (topic: string) =>
  Array.from(
    { length: 4 },
    (_, i) =>
      `<p>Paragraph ${i + 1} about ${topic} runs long enough to count as the body of an article, with plain sentences and no links at all in it.</p>`,
  ).join('\n');

describe('extractHtmlPage', () => {
  it("reads a page as a browser builds it when a server's warnings are printed before the doctype", () => {
    const { text, metadata } = extractHtmlPage(`<br />
      <b>Warning</b>: mysql_connect(): Access denied in <b>plugin.php</b> on line <b>299</b><br />
      <!DOCTYPE html>
      <html lang="en"><head><title>Opening hours</title></head>
      <body><h1>Opening hours</h1><p>Monday to Friday, 9 to 5.</p><p>Closed on public holidays.</p></body></html>`);
    expect(metadata.extraction).toBe('whole-page');
    expect(text).toContain('Monday to Friday, 9 to 5.');
    expect(text).toContain('Closed on public holidays.');
  });

  it('drops a pull quote that repeats a paragraph, and an author box naming the author', () => {
    const { text } = extractHtmlPage(`<html><head><meta name="author" content="Ines Duarte"></head><body><article>
      <h1>Quiet streets</h1>
      <p>Cities that closed side streets to through traffic saw fewer accidents and more people walking to school.</p>
      <blockquote><p>more people walking to school</p></blockquote>
      ${filler('streets')}
      <p>Ines Duarte writes about cities and transport.</p>
    </article></body></html>`);
    expect(text).toContain('more people walking to school.');
    expect(text.match(/more people walking to school/g)).toHaveLength(1);
    expect(text).not.toContain('writes about cities');
  });

  it('takes the headline as the title when the title adds the site after a separator, and keeps a title that merely starts with it', () => {
    const page = (title: string) =>
      `<html><head><title>${title}</title></head><body><article><h1>Quiet streets</h1>${filler('streets')}</article></body></html>`;
    expect(extractHtmlPage(page('Quiet streets | by Ines Duarte | City Desk')).metadata.title).toBe('Quiet streets');
    expect(extractHtmlPage(page('Quiet streets and busy roads')).metadata.title).toBe('Quiet streets and busy roads');
  });

  it('reads the date from a <time> in the article and resolves a relative canonical URL against <base>', () => {
    const { metadata } =
      extractHtmlPage(`<html><head><base href="https://example.org/blog/"><link rel="canonical" href="quiet-streets"></head>
      <body><article><h1>Quiet streets</h1><p class="meta">Posted <time datetime="2024-02-29T10:00:00Z">29 Feb</time></p>${filler('streets')}</article></body></html>`);
    expect(metadata).toMatchObject({
      extraction: 'article',
      canonicalUrl: 'https://example.org/blog/quiet-streets',
      publishedAt: '2024-02-29T10:00:00.000Z',
    });
  });

  it('resolves a relative canonical URL against the address the page came from, through its <base>', () => {
    const page = (head: string) =>
      `<html><head>${head}<link rel="canonical" href="../amp/quiet-streets"></head><body><article>${filler('streets')}</article></body></html>`;
    expect(extractHtmlPage(page(''), 'https://example.org/news/2024/x.html').metadata.canonicalUrl).toBe(
      'https://example.org/news/amp/quiet-streets',
    );
    expect(
      extractHtmlPage(page('<base href="/blog/a/">'), 'https://example.org/news/x.html').metadata.canonicalUrl,
    ).toBe('https://example.org/blog/amp/quiet-streets');
    expect(extractHtmlPage(page('')).metadata.canonicalUrl).toBeUndefined();
  });

  it('leaves out what the page does not say, and never an unusable canonical URL or date', () => {
    const { metadata } =
      extractHtmlPage(`<html><head><link rel="canonical" href="javascript:alert(1)"><meta name="date" content="sometime soon"></head>
      <body><article>${filler('streets')}</article></body></html>`);
    expect(metadata).toEqual({ extraction: 'article', excerpt: expect.any(String) });
  });

  it('keeps the whole text, flagged, of a page nested too deeply to search in the time a file gets', () => {
    const paragraph =
      'A paragraph at the bottom of a very deep chain of elements, long enough to be an article if it were searched. '.repeat(
        5,
      );
    const { text, metadata } = extractHtmlPage(
      `<html><body>${'<div>'.repeat(300)}<p>${paragraph}</p>${'</div>'.repeat(300)}</body></html>`,
    );
    expect(text).toBe(paragraph.trim());
    expect(metadata).toEqual({
      extraction: 'whole-page',
      fallbackReason: 'the page nests 303 elements deep, more than the 256 searched for an article',
    });
  });

  it('keeps the whole text, flagged, of a page with no text at all', () => {
    expect(extractHtmlPage('<html><body><img src="a.png"></body></html>')).toEqual({
      text: '',
      elements: [],
      metadata: { extraction: 'whole-page', fallbackReason: 'no block of text was found' },
    });
  });
});

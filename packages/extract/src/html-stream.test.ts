import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './html-article.ts';
import { pageShape, streamedText } from './html-stream.ts';

const nested = (depth: number) =>
  `<!doctype html><html lang="en"><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}The text at the bottom.${'</div>'.repeat(depth)}</body></html>`;

describe('pages too deep or too large for the DOM', () => {
  it('reads a page nested 100,000 elements deep from the stream of tags, flagged, without overflowing the stack', () => {
    const page = extractHtmlPage(nested(100_000));
    expect(page.text).toBe('The text at the bottom.');
    expect(page.metadata).toMatchObject({ extraction: 'whole-page', title: 'Deep', lang: 'en' });
    expect(page.metadata.fallbackReason).toMatch(/nests 100002 elements deep, more than the 256/);
  });

  it('reads a flat page of 60,000 elements the same way, every line kept', () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => `<div>row ${i}</div>`).join('');
    const page = extractHtmlPage(`<html><body><nav><a href="/">Home</a></nav>${rows}</body></html>`);
    expect(page.metadata.fallbackReason).toMatch(/has 60004 elements, more than the 50000/);
    const lines = page.text.split('\n\n');
    expect(lines).toHaveLength(60_000);
    expect(lines.at(-1)).toBe('row 59999');
    expect(page.text).not.toContain('Home');
  });

  it('counts depth as a browser builds the tree: void elements and unclosed paragraphs and list items do not nest', () => {
    const items = '<li>item'.repeat(1000);
    expect(
      pageShape(`<html><body><ul>${items}</ul>${'<p>para'.repeat(1000)}<br><img src=x></body></html>`).deepest,
    ).toBe(4);
  });

  it('keeps block breaks, decodes entities and skips scripts and styles', () => {
    expect(
      streamedText('<p>Fish &amp; chips</p><script>var x = "<p>";</script><style>p{}</style><p>Peas</p>').text,
    ).toBe('Fish & chips\n\nPeas');
  });

  it('leaves out soft hyphens and ruby annotations, as the DOM path does', () => {
    expect(
      streamedText('<p>Mit&shy;tel&shy;al&shy;ter</p><p><ruby>虐待<rt>ぎゃくたい</rt></ruby>をなくす</p>').text,
    ).toBe('Mittelalter\n\n虐待をなくす');
  });
});

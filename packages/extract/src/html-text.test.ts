import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text.ts';

const PAGE = `<!doctype html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>
    Cells &amp; Energy  |  Biology
  </title>
  <style>body { color: red } .secret-style {}</style>
  <script>var secretScript = "<title>not the title</title>";</script>
</head><body>
  <svg><title>menu icon</title><path d="M0 0"/></svg>
  <nav><a href="/">Home</a> <a href="/about">About us</a></nav>
  <h1>Mitochondria</h1>
  <p>Mitochondria are the <a href="https://example.org/power">powerhouse</a> of the cell.</p>
  <img src="diagram.png" alt="a diagram">
  <noscript>Please enable JavaScript</noscript>
  <ul><li>ATP synthesis</li><li>Calcium storage</li></ul>
  <table><tr><th>Organelle</th><th>Role</th></tr><tr><td>Ribosome</td><td>Protein synthesis</td></tr></table>
  <script>document.write('secret runtime text')</script>
</body></html>`;

describe('htmlToText', () => {
  const { title, text } = htmlToText(PAGE);

  it('takes the document title with entities decoded and whitespace collapsed, not an SVG or script title', () => {
    expect(title).toBe('Cells & Energy | Biology');
  });

  it('keeps the readable text in order', () => {
    expect(text).toMatch(/Mitochondria\s+Mitochondria are the powerhouse of the cell\./);
    expect(text).toMatch(/ATP synthesis[\s\S]*Calcium storage/);
    expect(text).toMatch(/Organelle\s+Role\s+Ribosome\s+Protein synthesis/);
  });

  it('drops scripts, styles, navigation, icons, images and link targets', () => {
    for (const gone of [
      'secret',
      'color: red',
      'Home',
      'About us',
      'menu icon',
      'diagram',
      'enable JavaScript',
      'https://example.org',
      'not the title',
    ]) {
      expect(text).not.toContain(gone);
    }
  });

  it('drops soft hyphens, which a reader never sees, so that a hyphenated word is found by its spelling', () => {
    const { text } = htmlToText('<p>Im Mit&shy;tel&shy;al&shy;ter war er das Aus\u00adhänge\u00adschild.</p>');
    expect(text).toBe('Im Mittelalter war er das Aushängeschild.');
  });

  it('reads ruby text without its annotations, the readings set above the characters', () => {
    const { text } = htmlToText(
      '<p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>どもへの<ruby>虐待<rt>ぎゃくたい</rt></ruby>をなくす</p>',
    );
    expect(text).toBe('子どもへの虐待をなくす');
  });

  it('has no title when the page has none or an empty one', () => {
    expect(htmlToText('<p>Just a fragment</p>')).toEqual({ title: undefined, text: 'Just a fragment' });
    expect(htmlToText('<html><head><title> </title></head><body>x</body></html>').title).toBeUndefined();
  });
});

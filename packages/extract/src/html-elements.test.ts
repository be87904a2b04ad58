import { describe, expect, it } from 'vitest';
import { plainTextOf } from './document.ts';
import { documentOf } from './html-dom.ts';
import { htmlElements } from './html-elements.ts';
import { isMarkdownFile } from './markdown-elements.ts';
import { toMarkdown } from './markdown.ts';
import { extractTextBytes } from './text.ts';

const elementsOf = (html: string) => htmlElements(documentOf(html).body);

describe('htmlElements', () => {
  it('reads headings with their levels, nested lists with their depth and numbering, code and quotes', () => {
    const elements = elementsOf(`
      <h1>Cells</h1><p>Every <b>living</b> thing<br>is made of cells.</p>
      <h2>Parts</h2>
      <ul><li>Nucleus<ul><li>Nucleolus</li><li>Chromatin<ol><li>First</li></ol></li></ul></li><li>Ribosome</li></ul>
      <h3>In code</h3>
      <pre><code class="language-python">def cell():
    return "alive"</code></pre>
      <blockquote><p>Omnis cellula e cellula.</p></blockquote>`);
    expect(elements).toEqual([
      { kind: 'heading', level: 1, text: 'Cells' },
      { text: 'Every living thing\nis made of cells.' },
      { kind: 'heading', level: 2, text: 'Parts' },
      { kind: 'list-item', level: 1, ordered: false, text: 'Nucleus' },
      { kind: 'list-item', level: 2, ordered: false, text: 'Nucleolus' },
      { kind: 'list-item', level: 2, ordered: false, text: 'Chromatin' },
      { kind: 'list-item', level: 3, ordered: true, text: 'First' },
      { kind: 'list-item', level: 1, ordered: false, text: 'Ribosome' },
      { kind: 'heading', level: 3, text: 'In code' },
      { kind: 'code', language: 'python', text: 'def cell():\n    return "alive"' },
      { text: 'Omnis cellula e cellula.' },
    ]);
  });

  it("numbers an ordered list's items from its start and their values, and the Markdown keeps those numbers", () => {
    const elements = elementsOf(`
      <ol start="4"><li>Fourth</li><li>Fifth</li></ol><p>Then:</p>
      <ol><li>Step 1</li></ol><p>Note: wear gloves.</p><ol start="2"><li>Step 2</li><li value="7">Step 7</li><li>Step 8</li></ol>
      <ol><li>One</li><li>Two</li></ol>
      <ol reversed start="3"><li>Three</li><li>Two</li></ol>
      <ol type="a" start="2"><li>b</li></ol>`);
    const items = elements.filter((element) => element.kind === 'list-item');
    expect(items.map((item) => [item.text, item.number])).toEqual([
      ['Fourth', 4],
      ['Fifth', 5],
      ['Step 1', undefined],
      ['Step 2', 2],
      ['Step 7', 7],
      ['Step 8', 8],
      ['One', undefined],
      ['Two', undefined],
      // Counting down or in letters: no number, rather than a wrong one.
      ['Three', undefined],
      ['Two', undefined],
      ['b', undefined],
    ]);
    const markdown = toMarkdown(elements);
    expect(markdown).toContain(
      '4. Fourth\n5. Fifth\n\nThen:\n\n1. Step 1\n\nNote: wear gloves.\n\n2. Step 2\n7. Step 7\n8. Step 8',
    );
    expect(plainTextOf(elements)).toContain('Note: wear gloves.\n\n2. Step 2\n7. Step 7\n8. Step 8');
  });

  it('reads a table with its header row, a merged cell and its caption', () => {
    const [caption, table] = elementsOf(`<table><caption>Organelles</caption>
      <thead><tr><th>Name</th><th colspan="2">Role and size</th></tr></thead>
      <tbody><tr><td rowspan="2">Mitochondrion</td><td>ATP</td><td>1 µm</td></tr><tr><td>Calcium</td><td>-</td></tr></tbody>
    </table>`);
    expect(caption).toEqual({ kind: 'caption', text: 'Organelles' });
    expect(table).toEqual({
      kind: 'table',
      text: 'Name\tRole and size\nMitochondrion\tATP\t1 µm\nCalcium\t-',
      rows: [
        [
          { text: 'Name', header: true },
          { text: 'Role and size', header: true, colSpan: 2 },
        ],
        [{ text: 'Mitochondrion', rowSpan: 2 }, { text: 'ATP' }, { text: '1 µm' }],
        [{ text: 'Calcium' }, { text: '-' }],
      ],
    });
  });

  it("reads a figure as its caption, a table of one cell as its blocks, and a table in a cell as that cell's text", () => {
    expect(
      elementsOf(`<figure><img src="cell.png" alt="A cell"><figcaption>Figure 1: a <i>plant</i> cell</figcaption></figure>
        <table><tr><td><h2>Layout</h2><table><tr><td>inner</td><td>cell</td></tr>
        <tr><td><table><tr><td>a</td><td>b</td></tr></table></td><td>c</td></tr></table></td></tr></table>`),
    ).toEqual([
      { kind: 'figure', text: 'Figure 1: a plant cell' },
      { kind: 'heading', level: 2, text: 'Layout' },
      {
        kind: 'table',
        text: 'inner\tcell\na b\tc',
        rows: [
          [{ text: 'inner' }, { text: 'cell' }],
          [{ text: 'a b' }, { text: 'c' }],
        ],
      },
    ]);
  });

  it('keeps each image as a figure with its source when asked (an EPUB chapter)', () => {
    expect(
      htmlElements(documentOf('<p>Before</p><img src="../img/a.png"><p>After</p>').body, { images: true }),
    ).toEqual([{ text: 'Before' }, { kind: 'figure', text: '', image: '../img/a.png' }, { text: 'After' }]);
  });

  it('reads a description list as a list: its terms, and their descriptions one level below', () => {
    expect(
      elementsOf('<dl><dt>Coffee</dt><dd>Black hot drink</dd><div><dt>Milk</dt><dd>White</dd></div></dl>'),
    ).toEqual([
      { kind: 'list-item', level: 1, ordered: false, text: 'Coffee' },
      { kind: 'list-item', level: 2, ordered: false, text: 'Black hot drink' },
      { kind: 'list-item', level: 1, ordered: false, text: 'Milk' },
      { kind: 'list-item', level: 2, ordered: false, text: 'White' },
    ]);
  });

  it("makes a plain text in which each element's text stands as it is", () => {
    const elements = elementsOf('<h1>A</h1><ul><li>one<ol><li>a</li><li>b</li></ol></li><li>two</li></ul><p>end</p>');
    const text = plainTextOf(elements);
    expect(text).toBe('A\n\n* one\n  1. a\n  2. b\n* two\n\nend');
    let cursor = 0;
    for (const element of elements) {
      const at = text.indexOf(element.text, cursor);
      expect(at).toBeGreaterThanOrEqual(cursor);
      cursor = at + element.text.length;
    }
  });
});

describe('a web page through the text extractor', () => {
  it("keeps the article's structure, its h1 a level-1 heading though Readability makes it an h2", async () => {
    const words = 'Tides rise and fall twice a day as the moon pulls the sea around the earth. '.repeat(12);
    const page = `<!doctype html><html><head><title>Tides</title></head><body>
      <nav><a href="/">Home</a></nav>
      <article><h1>How tides work</h1><p>${words}</p><h2>Spring tides</h2><p>${words}</p>
      <ol><li>New moon</li><li>Full moon</li></ol></article></body></html>`;
    const result = await extractTextBytes(Buffer.from(page));
    expect(result.segments.filter((s) => s.kind)).toEqual([
      { kind: 'heading', level: 1, text: 'How tides work' },
      { kind: 'heading', level: 2, text: 'Spring tides' },
      { kind: 'list-item', level: 1, ordered: true, text: 'New moon' },
      { kind: 'list-item', level: 1, ordered: true, text: 'Full moon' },
    ]);
    expect(result.text).not.toContain('Home');
    for (const segment of result.segments) expect(result.text).toContain(segment.text);
  });

  it("keeps a list's start number through the article reading", async () => {
    const words = 'Tides rise and fall twice a day as the moon pulls the sea around the earth. '.repeat(12);
    const page = `<!doctype html><html><head><title>Tides</title></head><body>
      <article><h1>How tides work</h1><p>${words}</p><ol><li>New moon</li></ol><p>${words}</p>
      <ol start="2"><li>Full moon</li></ol></article></body></html>`;
    const result = await extractTextBytes(Buffer.from(page));
    expect(result.segments.filter((s) => s.kind === 'list-item').map((s) => [s.text, s.number])).toEqual([
      ['New moon', undefined],
      ['Full moon', 2],
    ]);
    expect(result.text).toContain('earth.\n\n2. Full moon');
  });
});

describe('plain text and Markdown through the text extractor', () => {
  it('reads plain text as its paragraphs', async () => {
    const result = await extractTextBytes(Buffer.from('First paragraph\nstill first.\n\n\nSecond one.\n'));
    expect(result.segments).toEqual([{ text: 'First paragraph\nstill first.' }, { text: 'Second one.' }]);
    expect(result.metadata.format).toBe('plain');
  });

  it("reads a Markdown file as Markdown's own structure", async () => {
    const markdown = [
      '# Cells',
      '',
      'Every *living* thing is made of [cells](https://example.org) &amp; more.',
      '',
      '## Parts',
      '',
      '- Nucleus',
      '  - Nucleolus',
      '    1. First',
      '- Ribosome',
      '',
      '| Name | Role |',
      '|------|------|',
      '| Mitochondrion | ATP |',
      '',
      '```js',
      'const cell = "alive";',
      '```',
      '',
      '> A quote.',
    ].join('\n');
    const result = await extractTextBytes(Buffer.from(markdown), undefined, undefined, { markdown: true });
    expect(result.metadata.format).toBe('markdown');
    expect(result.segments).toEqual([
      { kind: 'heading', level: 1, text: 'Cells' },
      { text: 'Every living thing is made of cells & more.' },
      { kind: 'heading', level: 2, text: 'Parts' },
      { kind: 'list-item', level: 1, ordered: false, text: 'Nucleus' },
      { kind: 'list-item', level: 2, ordered: false, text: 'Nucleolus' },
      { kind: 'list-item', level: 3, ordered: true, number: 1, text: 'First' },
      { kind: 'list-item', level: 1, ordered: false, text: 'Ribosome' },
      {
        kind: 'table',
        text: 'Name\tRole\nMitochondrion\tATP',
        rows: [
          [
            { text: 'Name', header: true },
            { text: 'Role', header: true },
          ],
          [{ text: 'Mitochondrion' }, { text: 'ATP' }],
        ],
      },
      { kind: 'code', language: 'js', text: 'const cell = "alive";' },
      { text: 'A quote.' },
    ]);
    expect(result.text).not.toMatch(/[#|`>]|\*living/);
    expect(result.text).toContain('* Nucleus\n  * Nucleolus\n    1. First\n* Ribosome');
  });

  it("starts a Markdown file's list where the file does, after a paragraph too", async () => {
    const markdown = ['Steps:', '', '3. Third', '4. Fourth', '', 'A note.', '', '5) Fifth', '', '- Loose'].join('\n');
    const result = await extractTextBytes(Buffer.from(markdown), undefined, undefined, { markdown: true });
    const items = result.segments.filter((s) => s.kind === 'list-item');
    expect(items.map((s) => [s.text, s.number])).toEqual([
      ['Third', 3],
      ['Fourth', 4],
      ['Fifth', 5],
      ['Loose', undefined],
    ]);
    expect(result.text).toBe('Steps:\n\n3. Third\n4. Fourth\n\nA note.\n\n5. Fifth\n* Loose');
    expect(toMarkdown(result.segments)).toBe('Steps:\n\n3. Third\n4. Fourth\n\nA note.\n\n5. Fifth\n\n- Loose\n');
  });

  it('tells a Markdown file by its name or declared type', () => {
    expect(isMarkdownFile('notes.md', 'text/plain')).toBe(true);
    expect(isMarkdownFile('upload', 'text/markdown; charset=utf-8')).toBe(true);
    expect(isMarkdownFile('notes.txt', 'text/plain')).toBe(false);
  });
});

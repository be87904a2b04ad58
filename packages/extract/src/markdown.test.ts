import { describe, expect, it } from 'vitest';
import { escapeMarkdown, tableGrid, toMarkdown } from './markdown.ts';

describe('toMarkdown', () => {
  it('writes headings with their levels, paragraphs and page breaks as comments', () => {
    expect(
      toMarkdown([
        { kind: 'title', text: 'Cells', page: 1 },
        { kind: 'heading', level: 2, text: '1. Membranes', page: 1 },
        { text: 'A membrane *holds* the cell.', page: 1 },
        { kind: 'page-header', text: 'Biology 101', page: 2 },
        { text: 'Next page.', page: 2 },
      ]),
    ).toBe(
      '<!-- page 1 -->\n\n# Cells\n\n## 1. Membranes\n\nA membrane \\*holds\\* the cell.\n\n<!-- page 2 -->\n\nNext page.\n',
    );
  });

  it('nests lists by depth, numbers ordered items, and separates a list from a paragraph', () => {
    expect(
      toMarkdown([
        { text: 'Steps:' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Mix' },
        { kind: 'list-item', level: 2, text: 'slowly' },
        { kind: 'list-item', level: 2, text: 'well' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Bake' },
        { text: 'Done.' },
      ]),
    ).toBe('Steps:\n\n1. Mix\n   - slowly\n   - well\n2. Bake\n\nDone.\n');
  });

  it("starts a numbered list at its first item's own number and counts on from there", () => {
    expect(
      toMarkdown([
        { kind: 'list-item', level: 1, ordered: true, number: 1, text: 'Step 1' },
        { text: 'Note: wear gloves.' },
        { kind: 'list-item', level: 1, ordered: true, number: 2, text: 'Step 2' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Step 3' },
        { kind: 'list-item', level: 1, ordered: true, number: 7, text: 'Step 7' },
      ]),
    ).toBe('1. Step 1\n\nNote: wear gloves.\n\n2. Step 2\n3. Step 3\n7. Step 7\n');
  });

  it("sets a nested list starting past 1 apart, as CommonMark would read it as the item's text going on", () => {
    expect(
      toMarkdown([
        { kind: 'list-item', level: 1, text: 'Bake' },
        { kind: 'list-item', level: 2, ordered: true, number: 3, text: 'Third' },
        { kind: 'list-item', level: 2, ordered: true, text: 'Fourth' },
      ]),
    ).toBe('- Bake\n\n  3. Third\n  4. Fourth\n');
  });

  it('starts a new list where the numbers go back, with the other delimiter so that CommonMark does too', () => {
    expect(
      toMarkdown([
        { kind: 'list-item', level: 1, ordered: true, number: 1, text: 'First' },
        { kind: 'list-item', level: 1, ordered: true, number: 2, text: 'Second' },
        { kind: 'list-item', level: 1, ordered: true, number: 1, text: 'A new list' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Its second' },
        { kind: 'list-item', level: 1, ordered: true, number: 1, text: 'Another' },
      ]),
    ).toBe('1. First\n2. Second\n\n1) A new list\n2) Its second\n\n1. Another\n');
  });

  it('lays a table with merged cells on a grid, repeating the merged text', () => {
    const rows = [
      [
        { text: 'Name', header: true },
        { text: 'Scores', header: true, colSpan: 2 },
      ],
      [{ text: 'Ada', rowSpan: 2 }, { text: '1' }, { text: '2' }],
      [{ text: '3' }, { text: 'a|b' }],
    ];
    expect(tableGrid(rows)).toEqual({
      cells: [
        ['Name', 'Scores', 'Scores'],
        ['Ada', '1', '2'],
        ['Ada', '3', 'a|b'],
      ],
      headerRows: 1,
    });
    expect(toMarkdown([{ kind: 'table', text: '', rows }])).toBe(
      '| Name | Scores | Scores |\n|---|---|---|\n| Ada | 1 | 2 |\n| Ada | 3 | a\\|b |\n',
    );
  });

  it("writes a list inside a cell as the body's lists, its check boxes as task markers", () => {
    const rows = [[{ text: 'Services', header: true }], [{ text: 'Choose:\n* ☒ Juice\n* ☐ Tea *hot*\n* plain' }]];
    expect(toMarkdown([{ kind: 'table', text: '', rows }])).toBe(
      '| Services |\n|---|\n| Choose: - [x] Juice - [ ] Tea \\*hot\\* - plain |\n',
    );
  });

  it('fences code longer than any backtick run inside it, and links figures to their image', () => {
    expect(
      toMarkdown(
        [
          { kind: 'code', language: 'js', text: 'a = `x`;\n```' },
          { kind: 'figure', text: 'A cell [stained]', image: 'img-1.png' },
          { kind: 'figure', text: 'No stored image' },
        ],
        { imageUrl: (file) => `https://files.example/${file}?sig=1` },
      ),
    ).toBe(
      '````js\na = `x`;\n```\n````\n\n![A cell \\[stained\\]](<https://files.example/img-1.png?sig=1>)\n\nNo stored image\n',
    );
  });

  it('keeps text that looks like Markdown reading as itself', () => {
    expect(escapeMarkdown('# not a heading\n2. not a list\n- no\n> no')).toBe(
      '\\# not a heading\n2\\. not a list\n\\- no\n\\> no',
    );
  });
});

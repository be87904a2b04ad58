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

import { describe, expect, it } from 'vitest';
import { tagsByMarkedContent, type StructNode } from './pdf-tags.ts';

const node = (type: string, mcids: number[], children: StructNode[] = []): StructNode => ({ type, mcids, children });

describe("a page's structure tree read into blocks", () => {
  it('gives a nested list its depth and a table cell its row and column, headers marked', () => {
    const tags = tagsByMarkedContent([
      node(
        'Document',
        [],
        [
          node('H2', [0]),
          node(
            'L',
            [],
            [
              node(
                'LI',
                [],
                [node('Lbl', [1]), node('LBody', [2], [node('L', [], [node('LI', [], [node('LBody', [3])])])])],
              ),
            ],
          ),
          node(
            'Table',
            [],
            [
              node('THead', [], [node('TR', [], [node('TH', [4]), node('TH', [5])])]),
              node('TBody', [], [node('TR', [], [node('TD', [6], [node('P', [7])]), node('TD', [8], [])])]),
            ],
          ),
        ],
      ),
    ]);
    expect(tags.get(0)).toMatchObject({ kind: 'heading', level: 2 });
    // The label and the body are one item; the nested item is its own, a level deeper.
    expect(tags.get(1)).toBe(tags.get(2));
    expect(tags.get(1)).toMatchObject({ kind: 'list-item', level: 1 });
    expect(tags.get(3)).toMatchObject({ kind: 'list-item', level: 2 });
    expect(tags.get(4)).toMatchObject({ kind: 'cell', row: 0, column: 0 });
    expect(tags.get(8)).toMatchObject({ kind: 'cell', row: 1, column: 1 });
    // A paragraph inside a cell is the cell's text.
    expect(tags.get(7)).toBe(tags.get(6));
    expect(tags.get(4)!.table).toEqual([
      [
        { text: '', header: true },
        { text: '', header: true },
      ],
      [{ text: '' }, { text: '' }],
    ]);
  });

  it("reads a paragraph inside a heading as the heading's text (a slide's title, as LibreOffice tags it)", () => {
    const tags = tagsByMarkedContent([node('H', [], [node('P', [0])]), node('Div', [], [node('P', [1])])]);
    expect([tags.get(0)?.kind, tags.get(0)?.level, tags.get(1)?.kind]).toEqual(['heading', 1, 'paragraph']);
  });

  it('gives an id to the element of this page, not to a paragraph running on from the page before', () => {
    // A paragraph that starts on the page before (ids 36-45 there) and ends on this one (ids 0 and 3 here)
    // lists all its ids, with no page for them: this page's title keeps its id 0.
    const title = node('P', [0]);
    const running = node('P', [36, 37, 45, 0, 3]);
    const tags = tagsByMarkedContent([node('Document', [], [title, node('H1', [1]), node('P', [2]), running])]);
    expect(tags.get(0)).toMatchObject({ kind: 'paragraph', block: 2 });
    expect(tags.get(3)).toBe(tags.get(36));
    expect(tags.get(1)).toMatchObject({ kind: 'heading', level: 1 });
  });
});

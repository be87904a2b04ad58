import { describe, expect, it } from 'vitest';
import type { TableCell } from './document.ts';
import { PageTables } from './pdf-tables.ts';
import type { TextSegment } from './types.ts';

describe("a drawn table's rows, from the text found in its cells", () => {
  const empty = (columns: number): TableCell[] => Array.from({ length: columns }, () => ({ text: '' }));

  function read(table: TableCell[][], texts: [number, number, string][]): TableCell[][] | undefined {
    const elements: TextSegment[] = [];
    const tables = new PageTables(elements, 1, true);
    for (const [row, column, text] of texts)
      tables.add({ table, row, column }, text, [column * 100, row * 20, column * 100 + 90, row * 20 + 12]);
    tables.finish();
    return elements[0]?.rows;
  }

  it('leaves out the empty rows at its foot and the empty columns at its right (a slide grid drawn too big)', () => {
    const rows = read(
      Array.from({ length: 6 }, () => empty(4)),
      [
        [0, 0, 'Planet'],
        [0, 1, 'Moons'],
        [1, 0, 'Mars'],
        [1, 1, 'two'],
        [2, 0, 'Earth'],
      ],
    );
    expect(rows).toEqual([
      [{ text: 'Planet' }, { text: 'Moons' }],
      [{ text: 'Mars' }, { text: 'two' }],
      [{ text: 'Earth' }, { text: '' }],
    ]);
  });

  it('keeps the rows and columns a merged cell with text spans into', () => {
    // A cell of row 1 spans two rows and two columns: row 2 holds only the cells either side of it.
    const grid = [empty(4), [{ text: '' }, { text: '', rowSpan: 2, colSpan: 2 }, { text: '' }], empty(2), empty(4)];
    const rows = read(grid, [
      [0, 0, 'Name'],
      [0, 1, 'Class 1'],
      [1, 0, 'Row 1'],
      [1, 1, 'Merged'],
    ]);
    expect(rows).toEqual([
      [{ text: 'Name' }, { text: 'Class 1' }, { text: '' }],
      [{ text: 'Row 1' }, { text: 'Merged', rowSpan: 2, colSpan: 2 }],
      [{ text: '' }],
    ]);
  });

  it('keeps an empty last column where a row under a span holds only that column', () => {
    const grid = [empty(3), [{ text: '', rowSpan: 2, colSpan: 2 }, { text: '' }], empty(1)];
    expect(
      read(grid, [
        [0, 0, 'Name'],
        [0, 1, 'Value'],
        [1, 0, 'Spanning'],
      ]),
    ).toEqual([
      [{ text: 'Name' }, { text: 'Value' }, { text: '' }],
      [{ text: 'Spanning', rowSpan: 2, colSpan: 2 }, { text: '' }],
      [{ text: '' }],
    ]);
  });
});

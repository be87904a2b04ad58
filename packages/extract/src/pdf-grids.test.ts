import { describe, expect, it } from 'vitest';
import type { Box } from './document.ts';
import { ruledTables } from './pdf-grids.ts';

/** Rules of a grid: horizontal ones at `ys` from `left` to `right`, vertical ones at `xs` from `top` to `bottom`. */
const hRule = (y: number, x0: number, x1: number): Box => [x0, y - 0.5, x1, y + 0.5];
const vRule = (x: number, y0: number, y1: number): Box => [x - 0.5, y0, x + 0.5, y1];

describe('tables drawn as ruled grids', () => {
  it('reads a cell with no rule under it as spanning the row below', () => {
    // Three rows, two columns; the left column's rule between rows 1 and 2 is missing.
    const [table] = ruledTables([
      hRule(100, 50, 250),
      hRule(120, 50, 250),
      hRule(140, 150, 250),
      hRule(160, 50, 250),
      vRule(50, 100, 160),
      vRule(150, 100, 160),
      vRule(250, 100, 160),
    ]);
    expect(table).toBeDefined();
    const place = table!.placeAt(100, 150)!;
    expect(place).toMatchObject({ row: 1, column: 0 });
    expect(place.table).toEqual([
      [{ text: '' }, { text: '' }],
      [{ text: '', rowSpan: 2 }, { text: '' }],
      [{ text: '' }],
    ]);
    expect(table!.placeAt(100, 130)).toEqual(place);
    expect(table!.placeAt(300, 130)).toBeUndefined();
  });

  it("reads a table running off the page apart from the page's outline", () => {
    // A slide's background rectangle outlines the 400 by 300 page; the table's columns run on past its bottom
    // edge, so they touch the outline's lower side, which would join the page's margin to the grid as one
    // cell ringing the table.
    const outline = [hRule(0, 0, 400), hRule(300, 0, 400), vRule(0, 0, 300), vRule(400, 0, 300)];
    const grid = [
      hRule(200, 50, 250),
      hRule(250, 50, 250),
      hRule(299.5, 50, 250),
      hRule(350, 50, 250),
      vRule(50, 200, 350),
      vRule(150, 200, 350),
      vRule(250, 200, 350),
    ];
    const [table, ...others] = ruledTables([...outline, ...grid], { width: 400, height: 300 });
    expect(others).toEqual([]);
    expect(table!.box).toEqual([50, 200, 250, 350]);
    expect(table!.cells).toEqual([
      [{ text: '' }, { text: '' }],
      [{ text: '' }, { text: '' }],
      [{ text: '' }, { text: '' }],
    ]);
    expect(table!.placeAt(200, 320)).toMatchObject({ row: 2, column: 1 });
  });

  it('finds no table in a frame, an underline or rules that never meet', () => {
    expect(ruledTables([hRule(100, 50, 250), hRule(200, 50, 250), vRule(50, 100, 200), vRule(250, 100, 200)])).toEqual(
      [],
    );
    expect(ruledTables([hRule(100, 50, 250), hRule(120, 50, 250), hRule(140, 50, 250), vRule(400, 300, 400)])).toEqual(
      [],
    );
  });
});

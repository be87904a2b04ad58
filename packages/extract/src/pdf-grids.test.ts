import { describe, expect, it } from 'vitest';
import type { Box } from './document.ts';
import { hiddenLines, keepingTextApart, ruledTables, type Fill, type Glyph } from './pdf-grids.ts';

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

  it("reads a table over a text box it hides, the box's line in none of its cells", () => {
    // Two rows of two cells filled opaque (painted 1 to 4), laid over a line of text painted before them (0)
    // that runs across the column rule at 150: the reader sees only the cells' text (painted 5 and 6).
    const [table] = ruledTables([
      hRule(100, 50, 250),
      hRule(130, 50, 250),
      hRule(160, 50, 250),
      vRule(50, 100, 160),
      vRule(150, 100, 160),
      vRule(250, 100, 160),
    ]);
    const fills: Fill[] = [
      { box: [50, 100, 150, 130], order: 1 },
      { box: [150, 100, 250, 130], order: 2 },
      { box: [50, 130, 150, 160], order: 3 },
      { box: [150, 130, 250, 160], order: 4 },
    ];
    const glyph = (x: number, y: number, line: number, order: number): Glyph => ({
      left: x - 2.5,
      right: x + 2.5,
      x,
      y,
      size: 10,
      line,
      order,
    });
    const hiddenBox = [140, 145, 150, 155, 160].map((x) => glyph(x, 145, 0, 0));
    const cells = [glyph(60, 115, 1, 5), glyph(160, 115, 2, 6)];
    const glyphs = [...hiddenBox, ...cells];
    expect(keepingTextApart([table!], glyphs)).toEqual([]);
    const hidden = hiddenLines(glyphs, fills);
    expect([...hidden]).toEqual([0]);
    expect(keepingTextApart([table!], glyphs, hidden)).toEqual([table]);
    // The same line painted over the fills is seen, and running across the rule it is no table's text.
    const painted = hiddenBox.map((g) => ({ ...g, order: 9 }));
    expect(hiddenLines([...painted, ...cells], fills).size).toBe(0);
    // A line hidden in part (words under a redaction's box) is read as it stands.
    const redacted = [...hiddenBox, glyph(200, 145, 0, 9)];
    expect(hiddenLines([...redacted, ...cells], fills).size).toBe(0);
  });
});

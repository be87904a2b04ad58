import { describe, expect, it } from 'vitest';
import { alignedTables, type AlignedLine, type TextRun } from './pdf-aligned-tables.ts';

describe('tables set out in aligned columns, from a page’s lines', () => {
  /** A line at `top` of these runs, each `[text, left]`, in Helvetica 11 pt (about 5.5 pt a character). */
  const line = (top: number, runs: [string, number][], bold = false): AlignedLine => {
    const made: TextRun[] = runs.map(([text, left]) => ({ text, left, right: left + text.length * 5.5 }));
    return {
      text: runs.map(([text]) => text).join(' '),
      box: [made[0]!.left, top, made.at(-1)!.right, top + 11],
      size: 11,
      bold,
      ...(made.length >= 2 ? { runs: made } : {}),
    };
  };
  const cellsOf = (lines: AlignedLine[]) => {
    const [table] = alignedTables(lines);
    if (!table) return undefined;
    const rows = table.pieces[0]!.place.table.map((row) => row.map((cell) => ({ ...cell })));
    for (const { place, text } of table.pieces) {
      const cell = rows[place.row]![place.column]!;
      cell.text = cell.text ? `${cell.text}\n${text}` : text;
    }
    return rows;
  };

  it('reads rows whose runs line up in three columns as a table, the bold first row its header', () => {
    const lines = [
      line(60, [['Cells keep their energy in small molecules.', 72]]),
      line(
        90,
        [
          ['Organelle', 72],
          ['Membranes', 200],
          ['Share', 320],
        ],
        true,
      ),
      line(106, [
        ['Nucleus', 72],
        ['two', 200],
        ['6 %', 320],
      ]),
      line(122, [
        ['Mitochondria', 72],
        ['two', 200],
        ['22 %', 318],
      ]),
      line(138, [
        ['Ribosome', 72],
        ['none', 200],
        ['1 %', 320],
      ]),
      line(170, [['And spend it where work is done.', 72]]),
    ];
    const found = alignedTables(lines);
    expect(found).toHaveLength(1);
    expect(found[0]!.lines).toEqual(lines.slice(1, 5));
    expect(cellsOf(lines)).toEqual([
      [
        { text: 'Organelle', header: true },
        { text: 'Membranes', header: true },
        { text: 'Share', header: true },
      ],
      [{ text: 'Nucleus' }, { text: 'two' }, { text: '6 %' }],
      [{ text: 'Mitochondria' }, { text: 'two' }, { text: '22 %' }],
      [{ text: 'Ribosome' }, { text: 'none' }, { text: '1 %' }],
    ]);
  });

  it('takes a first row ruled under as the header (a three-rule table), but not one of a table ruled under every row', () => {
    const lines = [
      line(90, [
        ['Model', 72],
        ['Layers', 200],
        ['Score', 320],
      ]),
      line(106, [
        ['OTSL', 72],
        ['6', 200],
        ['0.965', 320],
      ]),
      line(122, [
        ['HTML', 72],
        ['6', 200],
        ['0.969', 320],
      ]),
      line(138, [
        ['OTSL', 72],
        ['4', 200],
        ['0.938', 320],
      ]),
    ];
    const rule = (y: number): [number, number, number, number] => [70, y, 360, y + 0.5];
    const headerOf = (rules: [number, number, number, number][]) =>
      alignedTables(lines, rules)[0]!.pieces[0]!.place.table[0]!.map((cell) => cell.header ?? false);
    expect(headerOf([rule(86), rule(103), rule(152)])).toEqual([true, true, true]);
    expect(headerOf([])).toEqual([false, false, false]);
    expect(headerOf([rule(103), rule(119), rule(135)])).toEqual([false, false, false]);
  });

  it('leaves a cell empty where a row has no run in its column, and joins a cell’s wrapped line to it', () => {
    const lines = [
      line(90, [
        ['Stain', 72],
        ['Colour', 200],
        ['Use', 320],
      ]),
      line(106, [
        ['Iodine', 72],
        ['brown', 200],
        ['starch', 320],
      ]),
      line(122, [
        ['Eosin', 72],
        ['stains proteins', 320],
      ]),
      line(133, [['in the cytoplasm', 320]]),
      line(149, [
        ['Gram', 72],
        ['violet', 200],
        ['bacteria', 320],
      ]),
    ];
    expect(cellsOf(lines)).toEqual([
      [{ text: 'Stain' }, { text: 'Colour' }, { text: 'Use' }],
      [{ text: 'Iodine' }, { text: 'brown' }, { text: 'starch' }],
      [{ text: 'Eosin' }, { text: '' }, { text: 'stains proteins\nin the cytoplasm' }],
      [{ text: 'Gram' }, { text: 'violet' }, { text: 'bacteria' }],
    ]);
  });

  it('takes the lines just over the rows whose runs each stand over a column as the header, and a row header drawn before its row into that row', () => {
    const lines = [
      line(40, [['Cells keep their energy in small molecules.', 72]]),
      line(70, [['Share of', 320]]),
      line(81, [['volume', 320]]),
      line(75, [['Organelle', 72]]),
      // A row header the file draws before the rows it stands beside.
      line(122, [['Large', 20]]),
      line(90, [
        ['Nucleus', 72],
        ['two', 200],
        ['6 %', 320],
      ]),
      line(106, [
        ['Mitochondria', 72],
        ['two', 200],
        ['22 %', 318],
      ]),
      line(122, [
        ['Chloroplast', 72],
        ['two', 200],
        ['1 %', 320],
      ]),
    ];
    expect(cellsOf(lines)).toEqual([
      [
        { text: '', header: true },
        { text: 'Organelle', header: true },
        { text: '', header: true },
        { text: 'Share of\nvolume', header: true },
      ],
      [{ text: '' }, { text: 'Nucleus' }, { text: 'two' }, { text: '6 %' }],
      [{ text: '' }, { text: 'Mitochondria' }, { text: 'two' }, { text: '22 %' }],
      [{ text: 'Large' }, { text: 'Chloroplast' }, { text: 'two' }, { text: '1 %' }],
    ]);
    expect(alignedTables(lines)[0]!.lines).not.toContain(lines[0]);
  });

  it('reads two rows as a table where the first is a bold header over a row that is not bold', () => {
    expect(
      cellsOf([
        line(
          90,
          [
            ['Name', 72],
            ['Description', 200],
          ],
          true,
        ),
        line(106, [
          ['Donald Duck', 72],
          ['Cartoon character', 200],
        ]),
      ]),
    ).toEqual([
      [
        { text: 'Name', header: true },
        { text: 'Description', header: true },
      ],
      [{ text: 'Donald Duck' }, { text: 'Cartoon character' }],
    ]);
  });

  it('ends a table at a caption centred between it and a table set out in other columns', () => {
    const lines = [
      line(
        90,
        [
          ['Type', 72],
          ['Sound', 120],
        ],
        true,
      ),
      line(106, [
        ['Short', 72],
        ['quak', 120],
      ]),
      line(122, [
        ['Long', 72],
        ['quaaaaaack', 120],
      ]),
      line(138, [['Famous ducks', 220]]),
      line(
        154,
        [
          ['Name', 72],
          ['Description', 200],
          ['Image', 420],
        ],
        true,
      ),
      line(170, [
        ['Donald Duck', 72],
        ['Cartoon character', 200],
        ['View PNG', 420],
      ]),
    ];
    const tables = alignedTables(lines).map((table) => table.pieces.map((piece) => piece.text));
    expect(tables).toEqual([
      ['Type', 'Sound', 'Short', 'quak', 'Long', 'quaaaaaack'],
      ['Name', 'Description', 'Image', 'Donald Duck', 'Cartoon character', 'View PNG'],
    ]);
  });

  it('finds no table in two rows, in labels with their values, in a list’s markers and items, nor in numbered formulas or code', () => {
    expect(
      alignedTables([
        line(90, [
          ['A', 72],
          ['B', 200],
        ]),
        line(106, [
          ['1', 72],
          ['2', 200],
        ]),
      ]),
    ).toEqual([]);
    const form = [
      line(90, [
        ['Name:', 72],
        ['Ada Lovelace', 160],
      ]),
      line(106, [
        ['Born:', 72],
        ['10 December 1815', 160],
      ]),
      line(122, [
        ['City:', 72],
        ['London', 160],
      ]),
    ];
    expect(alignedTables(form)).toEqual([]);
    const list = [
      line(90, [
        ['•', 80],
        ['First item', 94],
      ]),
      line(106, [
        ['•', 80],
        ['Second item', 94],
      ]),
      line(122, [
        ['•', 80],
        ['Third item', 94],
      ]),
    ];
    expect(alignedTables(list)).toEqual([]);
    const formulas = [
      line(90, [
        ['E = mc²', 200],
        ['(1)', 400],
      ]),
      line(110, [
        ['F = ma', 200],
        ['(2)', 400],
      ]),
      line(130, [
        ['p = mv', 200],
        ['(3)', 400],
      ]),
    ];
    expect(alignedTables(formulas)).toEqual([]);
    // Code set out in columns (an assignment's operands lined up), in a fixed-pitch font.
    const code = [90, 106, 122].map((top, i) => ({
      ...line(top, [
        [`width_${i}`, 72],
        ['=', 160],
        [`${i * 4}`, 180],
      ]),
      fixedPitch: true,
    }));
    expect(alignedTables(code)).toEqual([]);
    expect(alignedTables(code.map(({ fixedPitch: _, ...rest }) => rest))).toHaveLength(1);
  });

  it('finds no table in three columns of running text side by side, nor in notes with their text', () => {
    const prose = [0, 1, 2, 3].map((i) =>
      line(90 + i * 14, [
        ['so that the whole cell can grow', 40],
        ['when the time comes for it', 220],
        ['to do so again and again', 400],
      ]),
    );
    expect(alignedTables(prose)).toEqual([]);
    const notes = [1, 2, 3].map((i) =>
      line(90 + i * 14, [
        [`${i}`, 72],
        ['See the appendix for the whole method and its sources.', 90],
      ]),
    );
    expect(alignedTables(notes)).toEqual([]);
  });
});

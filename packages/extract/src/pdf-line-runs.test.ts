import { describe, expect, it } from 'vitest';
import { runEdgesOf, runsOfLine } from './pdf-line-runs.ts';

/** Characters 6 pt wide. */
const WIDTH = 6;

interface Piece {
  text: string;
  /** Where the piece starts on the page: its left edge when written left to right, its right edge when not. */
  from: number;
  rtl?: boolean;
}

/**
 * A line made of pieces in the text's (logical) order, joined by spaces without boxes, with each character's
 * left edge and each piece's edges sorted left to right, as PDFium's rectangles give them.
 */
function lineOf(pieces: Piece[]) {
  let text = '';
  const lefts: (number | undefined)[] = [];
  const spans: [number, number][] = [];
  pieces.forEach((piece, p) => {
    if (p > 0) {
      text += ' ';
      lefts.push(undefined);
    }
    const chars = [...piece.text];
    chars.forEach((char, k) => {
      text += char;
      lefts.push(char === ' ' ? undefined : piece.rtl ? piece.from - (k + 1) * WIDTH : piece.from + k * WIDTH);
    });
    const extent = chars.length * WIDTH;
    spans.push(piece.rtl ? [piece.from - extent, piece.from] : [piece.from, piece.from + extent]);
  });
  const edges = spans.sort((a, b) => a[0] - b[0]).flat();
  return { text, lefts, edges };
}

const textsOf = (pieces: Piece[]) => {
  const { text, lefts, edges } = lineOf(pieces);
  return runsOfLine(text, lefts, edges).map((run) => run.text);
};

describe('a line cut into runs by where its characters stand', () => {
  it('gives each run of a right-to-left line its own cell, the rightmost run written first', () => {
    const { text, lefts, edges } = lineOf([
      { text: 'ירושלים', from: 300, rtl: true },
      { text: 'ישראל', from: 150, rtl: true },
    ]);
    expect(runsOfLine(text, lefts, edges)).toEqual([
      { text: 'ישראל', left: 120, right: 150 },
      { text: 'ירושלים', left: 258, right: 300 },
    ]);
  });

  it('cuts a left-to-right line where its runs start, as before', () => {
    expect(
      textsOf([
        { text: 'Mitochondria', from: 72 },
        { text: 'two', from: 200 },
        { text: '22 %', from: 330 },
      ]),
    ).toEqual(['Mitochondria', 'two', '22 %']);
  });

  it('keeps each run of a mixed line in its own order: Arabic on the right, then a number and Latin on the left', () => {
    expect(
      textsOf([
        { text: 'القاهرة الكبرى', from: 400, rtl: true },
        { text: '22 million', from: 100 },
        { text: 'مصر', from: 250, rtl: true },
      ]),
    ).toEqual(['22 million', 'مصر', 'القاهرة الكبرى']);
  });
});

describe("a line's runs from its rectangles", () => {
  it('finds the runs left to right whatever order the rectangles come in, and joins those a word space apart', () => {
    // A column the file draws after the ones on its right, and a right-to-left line's rectangles.
    const rects = [
      { left: 200, right: 227, height: 8 },
      { left: 330, right: 357, height: 8 },
      { left: 72, right: 94, height: 8 },
      // A word space (3 pt) after "851.5": the same run.
      { left: 230, right: 250, height: 8 },
    ];
    expect(runEdgesOf(rects)).toEqual([72, 94, 200, 250, 330, 357]);
    expect(runEdgesOf([...rects].reverse())).toEqual([72, 94, 200, 250, 330, 357]);
  });
});

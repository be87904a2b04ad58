import { describe, expect, it } from 'vitest';
import type { TextSegment } from '@quire/extract';
import { chunkSegments } from './chunk-segments.ts';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
const options = { maxChars: 200, overlapChars: 40 };

describe('passages along the structure', () => {
  it('starts a passage at each heading and gives each the headings it stands under', () => {
    const segments: TextSegment[] = [
      { kind: 'heading', level: 1, text: 'Cells', page: 1 },
      { text: 'Every living thing is made of cells.', page: 1 },
      { kind: 'heading', level: 2, text: 'Parts', page: 1 },
      { text: 'A cell has parts.', page: 1, box: [72, 100, 300, 120] },
      { text: 'Some are small.', page: 1, box: [72, 130, 280, 150] },
      { kind: 'heading', level: 2, text: 'Energy', page: 2 },
      { text: 'Mitochondria make ATP.', page: 2 },
      { kind: 'page-footer', text: 'Biology notes, page 2', page: 2 },
    ];
    expect(chunkSegments(segments, options)).toEqual([
      { text: 'Cells\nEvery living thing is made of cells.', heading: ['Cells'], page: 1 },
      {
        text: 'Parts\nA cell has parts.\nSome are small.',
        heading: ['Cells', 'Parts'],
        page: 1,
        box: [72, 100, 300, 150],
      },
      { text: 'Energy\nMitochondria make ATP.', heading: ['Cells', 'Energy'], page: 2 },
    ]);
  });

  it('never cuts a list item or a table row, and keeps them under their heading', () => {
    const items: TextSegment[] = Array.from({ length: 8 }, (_, i) => ({
      kind: 'list-item',
      level: 1,
      text: words(6, `i${i}x`),
    }));
    const rows = Array.from({ length: 8 }, (_, r) => words(4, `r${r}c`).replace(/ /g, '\t')).join('\n');
    const chunks = chunkSegments(
      [{ kind: 'heading', level: 1, text: 'Steps' }, ...items, { kind: 'table', text: rows }],
      options,
    );
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.heading).toEqual(['Steps']);
      for (const line of chunk.text.split('\n')) {
        // Each line of a passage is a whole item or row (or the heading).
        expect(['Steps', ...items.map((item) => item.text), ...rows.split('\n')]).toContain(line);
      }
    }
    const all = chunks.map((c) => c.text).join('\n');
    for (const item of items) expect(all).toContain(item.text);
    for (const row of rows.split('\n')) expect(all).toContain(row);
  });

  it('cuts a list item longer than a passage between words, losing none', () => {
    const long = words(80, 'long');
    const chunks = chunkSegments([{ kind: 'list-item', level: 1, text: long }], options);
    expect(chunks.length).toBeGreaterThan(1);
    const seen = new Set(chunks.flatMap((c) => c.text.split(' ')));
    for (const word of long.split(' ')) expect(seen.has(word)).toBe(true);
  });

  it('keeps slides apart and says which slide a passage is on', () => {
    expect(
      chunkSegments([
        { text: 'Title slide', slide: 1, page: 1 },
        { text: 'Second slide', slide: 2, page: 2 },
      ]),
    ).toEqual([
      { text: 'Title slide', slide: 1, page: 1 },
      { text: 'Second slide', slide: 2, page: 2 },
    ]);
  });
});

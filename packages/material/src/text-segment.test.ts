import { describe, expect, it } from 'vitest';
import {
  firstPieceEnd,
  MAX_SEGMENT_CHARS,
  piecesOf,
  segmentsAreJustTheText,
  textSegmentSchema,
  textSegmentsOf,
} from './text-segment.ts';

const paragraph = (i: number) => `Paragraph ${i} ${'word '.repeat(200)}`.trim();

describe('long texts as segments', () => {
  it('cuts a long plain text at paragraph breaks into segments that tile it', () => {
    const text = Array.from({ length: 200 }, (_, i) => paragraph(i)).join('\n\n');
    const segments = textSegmentsOf(text, [], 'text');
    expect(segments.length).toBeGreaterThan(text.length / MAX_SEGMENT_CHARS);
    for (const segment of segments) {
      expect(segment.text.length).toBeLessThanOrEqual(MAX_SEGMENT_CHARS);
      expect(text.slice(segment.offset, segment.offset + segment.text.length)).toBe(segment.text);
      expect(segment.source).toBe('text-layer');
    }
    expect(segments.map((s) => s.text).join('')).toBe(text);
    expect(segments.slice(0, -1).every((s) => s.text.endsWith('\n\n'))).toBe(true);
    expect(segmentsAreJustTheText(segments, text, 'text')).toBe(true);
  });

  it('keeps a position on every piece of a long positioned segment', () => {
    const text = 'x'.repeat(MAX_SEGMENT_CHARS * 2 + 5);
    const segments = textSegmentsOf(text, [{ text, page: 3 }], 'pdf');
    expect(segments.map((s) => [s.offset, s.text.length, s.page])).toEqual([
      [0, MAX_SEGMENT_CHARS, 3],
      [MAX_SEGMENT_CHARS, MAX_SEGMENT_CHARS, 3],
      [MAX_SEGMENT_CHARS * 2, 5, 3],
    ]);
    expect(segmentsAreJustTheText(segments, text, 'pdf')).toBe(false);
  });

  it("carries an ordered item's own number, which the wire schema accepts", () => {
    const text = 'Note.\n\n3. Third';
    const segments = textSegmentsOf(
      text,
      [{ text: 'Note.' }, { text: 'Third', kind: 'list-item', level: 1, ordered: true, number: 3 }],
      'pdf',
    );
    expect(segments[1]).toMatchObject({ text: 'Third', offset: 10, ordered: true, number: 3 });
    expect(textSegmentSchema.parse(segments[1]).number).toBe(3);
    expect(segments[0]).not.toHaveProperty('number');
  });

  it('never splits a surrogate pair, and falls back to a line break or a space', () => {
    const emoji = 'a' + '😀'.repeat(10);
    expect(firstPieceEnd(emoji, 4)).toBe(3);
    expect(piecesOf(emoji, 4).map((p) => p.text)).toEqual(['a😀', '😀😀', '😀😀', '😀😀', '😀😀', '😀']);
    expect(firstPieceEnd('aaaa\nbbb cccc', 10)).toBe(9);
    expect(firstPieceEnd('aaaaaa\nbb cccc', 10)).toBe(7);
    expect(firstPieceEnd('short', 10)).toBe(5);
  });

  it('leaves a short text one segment, which need not be stored', () => {
    const segments = textSegmentsOf('A short note.', [], 'text');
    expect(segments).toEqual([{ text: 'A short note.', offset: 0, source: 'text-layer' }]);
    expect(segmentsAreJustTheText(segments, 'A short note.', 'text')).toBe(true);
  });
});

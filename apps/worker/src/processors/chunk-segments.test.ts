import { describe, expect, it } from 'vitest';
import { chunkSegments } from './chunk-segments.ts';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('chunkSegments', () => {
  it('keeps a short segment whole with its position', () => {
    expect(chunkSegments([{ text: 'Photosynthesis makes sugar.', page: 3 }])).toEqual([
      { text: 'Photosynthesis makes sugar.', page: 3 },
    ]);
  });

  it('composes letters written with combining marks, as a query types them', () => {
    const decomposed = 'Die Gurtla\u0308nge wurde gepru\u0308ft.';
    expect(chunkSegments([{ text: decomposed }])).toEqual([{ text: 'Die Gurtl\u00e4nge wurde gepr\u00fcft.' }]);
  });

  it('cuts long text between words into bounded chunks that overlap a little and lose no word', () => {
    const text = words(600);
    const chunks = chunkSegments([{ text }], { maxChars: 200, overlapChars: 40 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(200);
      expect(text).toContain(chunk.text);
      expect(chunk.text).toMatch(/^w\d+( w\d+)*$/);
    }
    for (const [i, chunk] of chunks.slice(1).entries()) {
      const previous = chunks[i]!.text.split(' ');
      const current = chunk.text.split(' ');
      const shared = previous.filter((w) => current.includes(w));
      expect(shared.length).toBeGreaterThan(0);
      expect(shared.join(' ').length).toBeLessThanOrEqual(40);
      expect(previous.slice(-shared.length)).toEqual(current.slice(0, shared.length));
    }
    const seen = new Set(chunks.flatMap((c) => c.text.split(' ')));
    expect(seen.size).toBe(600);
  });

  it('never joins two pages or two chapters in one chunk', () => {
    const chunks = chunkSegments([
      { text: 'alpha beta', page: 1 },
      { text: 'gamma delta', page: 2 },
      { text: 'epsilon', chapter: 4 },
    ]);
    expect(chunks).toEqual([
      { text: 'alpha beta', page: 1 },
      { text: 'gamma delta', page: 2 },
      { text: 'epsilon', chapter: 4 },
    ]);
  });

  it('joins consecutive timed segments and spans their times', () => {
    const segments = Array.from({ length: 30 }, (_, i) => ({
      text: `line ${i} of the talk`,
      startMs: i * 1000,
      endMs: i * 1000 + 900,
    }));
    const chunks = chunkSegments(segments, { maxChars: 100, overlapChars: 20 });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0]).toMatchObject({ startMs: 0 });
    expect(chunks[0]!.text.startsWith('line 0 of the talk\nline 1')).toBe(true);
    const joined = segments.map((s) => s.text).join('\n');
    const lineAt = (offset: number) => joined.slice(0, offset).split('\n').length - 1;
    for (const chunk of chunks) {
      const start = joined.indexOf(chunk.text);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(chunk.startMs).toBe(lineAt(start) * 1000);
      expect(chunk.endMs).toBe(lineAt(start + chunk.text.length) * 1000 + 900);
    }
    expect(chunks.at(-1)!.endMs).toBe(29_900);
  });

  it('cuts a word longer than a chunk, and makes nothing of blank text', () => {
    const chunks = chunkSegments([{ text: `start ${'x'.repeat(250)} end` }], { maxChars: 100, overlapChars: 10 });
    expect(chunks.every((c) => c.text.length <= 100)).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toContain('start');
    expect(chunks.at(-1)!.text.endsWith('end')).toBe(true);
    expect(chunkSegments([{ text: '  \n ' }, { text: '' }])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { plainTextOf } from './document.ts';

describe('plainTextOf', () => {
  it('numbers an ordered item with its own number, and the items after it from there', () => {
    expect(
      plainTextOf([
        { kind: 'list-item', level: 1, ordered: true, number: 1, text: 'Step 1' },
        { text: 'Note: wear gloves.' },
        { kind: 'list-item', level: 1, ordered: true, number: 2, text: 'Step 2' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Step 3' },
        { kind: 'list-item', level: 2, ordered: true, text: 'Detail' },
      ]),
    ).toBe('1. Step 1\n\nNote: wear gloves.\n\n2. Step 2\n3. Step 3\n  1. Detail');
  });

  it('counts from 1 where the items give no number', () => {
    expect(
      plainTextOf([
        { kind: 'list-item', level: 1, ordered: true, text: 'Mix' },
        { text: 'Wait.' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Bake' },
        { kind: 'list-item', level: 1, ordered: true, text: 'Serve' },
      ]),
    ).toBe('1. Mix\n\nWait.\n\n1. Bake\n2. Serve');
  });
});

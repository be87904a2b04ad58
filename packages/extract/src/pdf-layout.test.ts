import { describe, expect, it } from 'vitest';
import { layoutElements } from './pdf-layout.ts';
import type { LayoutLine, LayoutPage } from './pdf-lines.ts';

describe("the document model of an untagged page, from its lines' look", () => {
  const line = (text: string, left: number, top: number, size = 10): LayoutLine => ({
    text,
    box: [left, top, left + text.length * size * 0.5, top + size],
    size,
    bold: false,
  });
  /** One Letter-size page of these lines. */
  const page = (lines: LayoutLine[]): LayoutPage[] => [{ page: 1, width: 612, height: 792, lines }];

  it("nests LaTeX's bullets of three levels (•, – and ∗), and reads a small note marked ∗ as a footnote", () => {
    const elements = layoutElements(
      page([
        line('The parts of a cell:', 72, 72),
        line('• The nucleus', 72, 86),
        line('– The nucleolus', 90, 100),
        line('∗ Its fibrillar centre', 108, 114),
        line('• The cytoplasm', 72, 128),
        line('A cell keeps its energy in small molecules and spends it where work is done.', 72, 148),
        line('∗ Peter Pan, Institute of Cells, Neverland.', 72, 740, 8),
      ]),
    );
    expect(elements.map((e) => [e.kind ?? 'paragraph', e.level, e.text])).toEqual([
      ['paragraph', undefined, 'The parts of a cell:'],
      ['list-item', 1, 'The nucleus'],
      ['list-item', 2, 'The nucleolus'],
      ['list-item', 3, 'Its fibrillar centre'],
      ['list-item', 1, 'The cytoplasm'],
      ['paragraph', undefined, 'A cell keeps its energy in small molecules and spends it where work is done.'],
      ['footnote', undefined, '∗ Peter Pan, Institute of Cells, Neverland.'],
    ]);
  });

  it('starts an item at a letter after a line that stopped short, and reads a date after one as text', () => {
    const prose = 'Cells keep their energy in small molecules and spend it where work is done, one after another';
    const elements = layoutElements(
      page([
        ...Array.from({ length: 6 }, (_, i) => line(prose, 72, 72 + i * 14)),
        line('The task has two parts', 72, 156),
        line('a) The first part.', 72, 170),
        line('b) The second part.', 72, 184),
        line('Handed in on the', 72, 212),
        line('15. Oktober 2020', 72, 226),
      ]),
    );
    expect(elements.map((e) => [e.kind ?? 'paragraph', e.text.split('\n').at(-1)])).toEqual([
      ['paragraph', 'The task has two parts'],
      ['list-item', 'The first part.'],
      ['list-item', 'The second part.'],
      ['paragraph', '15. Oktober 2020'],
    ]);
  });

  it("takes the body's size from the slides' text, not from a footer running on every slide", () => {
    const footer = 'Bern University of Applied Sciences | Lecture 3 | Introduction to the cell';
    const titles = ['The nucleus', 'The membrane', 'Mitochondria', 'Ribosomes', 'The cytoskeleton', 'Summary'];
    const slides: LayoutPage[] = Array.from({ length: 6 }, (_, i) => ({
      page: i + 1,
      width: 720,
      height: 540,
      lines: [line(titles[i]!, 36, 40, 24), line('Cells keep their energy.', 36, 120, 14), line(footer, 36, 510, 8)],
    }));
    const elements = layoutElements(slides);
    expect(elements.filter((e) => e.kind === 'heading').map((e) => e.text)).toEqual(titles);
    expect(elements.filter((e) => e.kind === 'page-footer')).toHaveLength(6);
  });

  it('keeps the nesting of a list that goes on at the top of the next page', () => {
    const pages: LayoutPage[] = [
      { page: 1, width: 612, height: 792, lines: [line('• The nucleus', 72, 700), line('– The nucleolus', 90, 714)] },
      { page: 2, width: 612, height: 792, lines: [line('– The envelope', 90, 72), line('• The cytoplasm', 72, 86)] },
    ];
    expect(layoutElements(pages).map((e) => [e.text, e.level])).toEqual([
      ['The nucleus', 1],
      ['The nucleolus', 2],
      ['The envelope', 2],
      ['The cytoplasm', 1],
    ]);
  });
});

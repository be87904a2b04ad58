import { describe, expect, it } from 'vitest';
import { toMarkdown } from './markdown.ts';
import { layoutElements } from './pdf-layout.ts';
import type { LayoutLine, LayoutPage } from './pdf-lines.ts';
import { taggedElements } from './pdf-tagged-layout.ts';
import type { LineTag } from './pdf-tags.ts';

describe('the document model of a tagged page, from its lines and their tags', () => {
  const line = (text: string, top: number, tag?: LineTag): LayoutLine => ({
    text,
    box: [72, top, 300, top + 11],
    size: 11,
    bold: false,
    ...(tag ? { tag } : {}),
  });
  const paragraph = (block: number): LineTag => ({ block, order: block, kind: 'paragraph' });
  /** One Letter-size page of these lines. */
  const page = (lines: LayoutLine[]): LayoutPage[] => [{ page: 1, width: 612, height: 792, lines }];

  it('reads a paragraph that starts with a check box as a check list item, as the page-read layout does', () => {
    const lines = [
      line('Tasks before release:', 72, paragraph(1)),
      line('☒ Design', 90, paragraph(2)),
      line('☐ Documentation', 108, paragraph(3)),
    ];
    const markdown = '<!-- page 1 -->\n\nTasks before release:\n\n- [x] Design\n- [ ] Documentation\n';
    // (The tree tags a heading, so its paragraphs are its own, not the look's.)
    const heading = line('Done by Friday', 126, { block: 4, order: 4, kind: 'heading', level: 2 });
    expect(toMarkdown(taggedElements(page([...lines, heading])))).toBe(`${markdown}\n## Done by Friday\n`);
    expect(toMarkdown(layoutElements(page(lines.map(({ tag: _, ...untagged }) => untagged))))).toBe(markdown);
  });

  it('puts the lines in the order of the tree, whatever order the page draws them in', () => {
    const elements = taggedElements(
      page([
        line('Second, drawn first', 72, paragraph(2)),
        line('First, drawn last', 90, { block: 1, order: 1, kind: 'heading', level: 1 }),
      ]),
    );
    expect(elements.map((e) => e.text)).toEqual(['First, drawn last', 'Second, drawn first']);
  });

  it("keeps a table's rows that the tree tags as paragraphs as paragraphs, though each starts with a number, where the look adds the headings", () => {
    /** A row of a table set out in columns: its runs, each `[text, left]`, in 11 pt (about 5.5 pt a character). */
    const row = (top: number, block: number, runs: [string, number][]): LayoutLine => {
      const made = runs.map(([text, left]) => ({ text, left, right: left + text.length * 5.5 }));
      return {
        text: runs.map(([text]) => text).join(' '),
        box: [72, top, made.at(-1)!.right, top + 11],
        size: 11,
        bold: false,
        gaps: made.slice(1).map((run) => run.left),
        runs: made,
        tag: paragraph(block),
      };
    };
    const elements = taggedElements(
      page([
        { ...line('Fruit in store', 200, paragraph(1)), size: 16, box: [72, 200, 200, 216] },
        line('What the shop has this week, by the crate.', 230, paragraph(2)),
        row(250, 3, [
          ['1. Apples', 72],
          ['3', 200],
          ['4 kg', 320],
        ]),
        row(266, 4, [
          ['2. Pears', 72],
          ['5', 200],
          ['2 kg', 320],
        ]),
        row(282, 5, [
          ['3. Plums', 72],
          ['1', 200],
          ['7 kg', 320],
        ]),
      ]),
    );
    expect(elements.map(({ kind, text }) => [kind, text])).toEqual([
      ['heading', 'Fruit in store'],
      [undefined, 'What the shop has this week, by the crate.'],
      [undefined, '1. Apples 3 4 kg'],
      [undefined, '2. Pears 5 2 kg'],
      [undefined, '3. Plums 1 7 kg'],
    ]);
  });
});

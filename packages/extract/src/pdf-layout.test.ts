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
  /** `count` full lines of a paragraph's text from the margin, one under another from `top`. */
  const prose = 'Cells keep their energy in small molecules and spend it where work is done, one after another';
  const proseLines = (count: number, top = 72) =>
    Array.from({ length: count }, (_, i) => line(prose, 72, top + i * 14));

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
    const elements = layoutElements(
      page([
        ...proseLines(6),
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

  it('joins the lines of an item that goes on at the top of the next page to the item', () => {
    const pages: LayoutPage[] = [
      {
        page: 1,
        width: 612,
        height: 792,
        lines: [
          line('• The nucleus, which holds the cell’s genes and from which the cell', 72, 686),
          line('is directed, sits in the middle of the', 82, 700),
        ],
      },
      {
        page: 2,
        width: 612,
        height: 792,
        lines: [line('cell.', 82, 72), line('The membrane keeps the cell apart.', 72, 100)],
      },
    ];
    expect(layoutElements(pages).map((e) => [e.kind ?? 'paragraph', e.page, e.text])).toEqual([
      [
        'list-item',
        1,
        'The nucleus, which holds the cell’s genes and from which the cell\nis directed, sits in the middle of the\ncell.',
      ],
      ['paragraph', 2, 'The membrane keeps the cell apart.'],
    ]);
  });

  it("keeps a paragraph's last word on its own line with the paragraph, under a first line set in", () => {
    const elements = layoutElements(
      page([
        ...proseLines(5),
        line('A cell keeps its energy in small molecules and spends it where work is done, then', 108, 156),
        line('again.', 72, 170),
      ]),
    );
    expect(elements.map((e) => e.text.split('\n').at(-1))).toEqual([prose, 'again.']);
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

  it("reads a book's running heads and page numbers, but not a chapter's heading they repeat or a listing's lines", () => {
    const text = proseLines(6, 160);
    const pages: LayoutPage[] = Array.from({ length: 6 }, (_, i) => ({
      page: i + 1,
      width: 612,
      height: 792,
      lines: [
        // The chapter opens on page 1 under its heading; the pages after it carry it as their running head.
        i === 0 ? line('Chapter 2 The cell', 72, 90, 20) : line('Chapter 2 The cell', 72, 90),
        // A listing runs from page to page, its lines numbered, in a fixed-pitch font.
        { ...line(`${i * 40 + 1} }%`, 72, 106), fixedPitch: true },
        ...text,
        // A book's page number stands further in than a word processor's footer.
        line(String(i + 1), 300, 680),
      ],
    }));
    const elements = layoutElements(pages);
    expect(elements.filter((e) => e.kind === 'heading').map((e) => [e.page, e.text])).toEqual([
      [1, 'Chapter 2 The cell'],
    ]);
    expect(elements.filter((e) => e.kind === 'page-header').map((e) => e.page)).toEqual([2, 3, 4, 5, 6]);
    expect(elements.filter((e) => e.kind === 'page-footer')).toHaveLength(6);
    expect(elements.filter((e) => e.kind === 'code' || e.text.endsWith('}%'))).toHaveLength(6);
  });

  describe('a page written right to left', () => {
    /** A line of right-to-left text ending (on the left) where its width says, from its start on the right. */
    const rtl = (text: string, right: number, top: number, size = 10, extra: Partial<LayoutLine> = {}): LayoutLine => ({
      text,
      box: [right - text.length * size * 0.5, top, right, top + size],
      size,
      bold: false,
      ...extra,
    });
    /** An item's line as PDFium gives it: the bullet first in the text, standing apart on the right in its own run. */
    const item = (text: string, top: number): LayoutLine => {
      const line = rtl(`• ${text}`, 540, top);
      const left = line.box[0];
      return {
        ...line,
        runs: [
          { text, left, right: 525 },
          { text: '•', left: 532, right: 536 },
        ],
      };
    };
    const hebrew = 'התא שומר את האנרגיה שלו במולקולות קטנות ומוציא אותה היכן שנעשית עבודה';

    it('reads its list with the bullets on the right as items, each with the lines under its text', () => {
      const elements = layoutElements(
        page([
          rtl(hebrew, 540, 72),
          rtl('חלקי התא:', 540, 86),
          item('הגרעין, שבו שמור החומר התורשתי של התא ושממנו יוצאות', 100),
          rtl('ההוראות', 525, 114),
          item('הממברנה', 128),
          item('הציטופלזמה', 142),
          rtl(hebrew, 540, 162),
        ]),
      );
      expect(elements.map((e) => [e.kind ?? 'paragraph', e.text])).toEqual([
        ['paragraph', `${hebrew}\nחלקי התא:`],
        ['list-item', 'הגרעין, שבו שמור החומר התורשתי של התא ושממנו יוצאות\nההוראות'],
        ['list-item', 'הממברנה'],
        ['list-item', 'הציטופלזמה'],
        ['paragraph', hebrew],
      ]);
      // The boxes stand where the text is drawn: an item's right edge is its bullet's.
      expect(elements[1]!.box![2]).toBe(540);
    });

    it('reads right-to-left text set flush left, as LibreOffice prints an HTML page, as it stands', () => {
      const elements = layoutElements(
        page([
          line(hebrew, 57, 72),
          line(`${hebrew} והיא`, 57, 86),
          line('נשמרת שם.', 57, 100),
          line(hebrew, 57, 130),
          line('ומוציאה אותה.', 57, 144),
        ]),
      );
      expect(elements.map((e) => e.text.split('\n').at(-1))).toEqual(['נשמרת שם.', 'ומוציאה אותה.']);
    });

    it('reads numbered items whose stop PDFium gives before their Persian numbers (".۲" for "۲."), tight or spaced', () => {
      const elements = layoutElements(
        page([
          rtl('مراحل کار:', 540, 72),
          rtl('.۱ فایل را بنویسید.', 540, 86),
          rtl('.۲لاتک را اجرا کنید.', 540, 100),
          rtl('.۱ ۲ مبانی کار در متن', 540, 130),
        ]),
      );
      expect(elements.map((e) => [e.kind ?? 'paragraph', e.text, e.number])).toEqual([
        ['paragraph', 'مراحل کار:', undefined],
        ['list-item', 'فایل را بنویسید.', 1],
        ['list-item', 'لاتک را اجرا کنید.', 2],
        // (Before a digit, a section's number: "۱.۲" as PDFium gives it.)
        ['paragraph', '.۱ ۲ مبانی کار در متن', undefined],
      ]);
    });

    it('joins a line PDFium gives in two pieces, the left one first, around a raised note mark', () => {
      const first = rtl('התא שומר את האנרגיה שלו', 540, 72);
      const second = rtl('במולקולות קטנות', first.box[0] - 8, 72);
      const mark: LayoutLine = { text: '1', box: [first.box[0] - 4, 70, first.box[0] - 1, 76], size: 6, bold: false };
      const elements = layoutElements(page([second, mark, first]));
      expect(elements.map((e) => e.text)).toEqual(['התא שומר את האנרגיה שלו 1 במולקולות קטנות']);
    });

    it('reads running heads with Persian numbers as running heads, and levels from Persian section numbers', () => {
      const body = Array.from({ length: 4 }, (_, i) => rtl(hebrew, 540, 200 + i * 14));
      // Each page: its running head (the chapter's, or the section's with the page's number), a section's
      // heading, and text.
      const head = (text: string) => rtl(text, 540, 60, 10, { bold: true });
      const section = (text: string, size: number) => rtl(text, 540, 130, size, { bold: true });
      const pages: LayoutPage[] = [
        [section('۱ . ۱ عنوان بازی', 14)],
        [head('۲ چیز هایی که باید بدانید'), section('۱ . ۱ . ۱ تک', 12)],
        [head('۱ . ۱ عنوان بازی ۳'), section('۱ . ۲ مبانی', 14)],
        [head('۴ چیز هایی که باید بدانید')],
        [head('۱ . ۲ مبانی ۵')],
        [head('۶ چیز هایی که باید بدانید')],
      ].map((lines, i) => ({ page: i + 1, width: 612, height: 792, lines: [...lines, ...body] }));
      const elements = layoutElements(pages);
      expect(elements.filter((e) => e.kind === 'heading').map((e) => [e.text, e.level])).toEqual([
        ['۱ . ۱ عنوان بازی', 1],
        ['۱ . ۱ . ۱ تک', 2],
        ['۱ . ۲ مبانی', 1],
      ]);
      expect(elements.filter((e) => e.kind === 'page-header')).toHaveLength(5);
    });
  });
});

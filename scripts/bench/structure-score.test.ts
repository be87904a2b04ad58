import { describe, expect, it } from 'vitest';
import { kendallTau, meanScores, multisetF1, readMarkdown, scoreMarkdown } from './structure-score.ts';

describe('readMarkdown', () => {
  it('reads headings, list items and table cells through the parser, escapes and markup left out', () => {
    const doc = readMarkdown(
      [
        '# The *Title*',
        '',
        'Some \\*escaped\\* text &amp; more.',
        '',
        '<!-- image -->',
        '',
        '- first item',
        '  - nested **item**',
        '1. numbered',
        '',
        '| a | b |',
        '|---|---|',
        '| 1\\|2 | |',
      ].join('\n'),
    );
    expect(doc.headings).toEqual([{ text: 'the title', level: 1 }]);
    expect(doc.listItems).toEqual(['first item', 'nested item', 'numbered']);
    expect(doc.tableCells).toEqual(['a', 'b', '1 2']);
    expect(doc.words).toContain('escaped');
    expect(doc.words).not.toContain('image');
    expect(doc.blocks).toContain('some escaped text more');
  });
});

describe('scores', () => {
  it('F1 of multisets counts each copy once', () => {
    expect(multisetF1(['a', 'a', 'b'], ['a', 'b', 'c'])).toBeCloseTo(2 / 3);
    expect(multisetF1([], [])).toBeNull();
    expect(multisetF1(['a'], [])).toBe(0);
  });

  it('Kendall tau is 1 in order, -1 reversed', () => {
    expect(kendallTau([1, 2, 3, 4])).toBe(1);
    expect(kendallTau([4, 3, 2, 1])).toBe(-1);
    expect(kendallTau([1, 3, 2])).toBeCloseTo(1 / 3);
    expect(kendallTau([5])).toBeNull();
  });

  it('heading levels agree once both documents start at level 1', () => {
    const reference = '## Intro\n\n### Part one\n\n## End';
    expect(scoreMarkdown('# Intro\n\n## Part one\n\n# End', reference).headingLevels).toBe(1);
    expect(scoreMarkdown('# Intro\n\n# Part one\n\n# End', reference).headingLevels).toBeCloseTo(2 / 3);
    expect(scoreMarkdown('# Intro\n\n## Part one\n\n# End', reference).headings).toBe(1);
  });

  it('a heading written as a paragraph is text but not a heading', () => {
    const scores = scoreMarkdown('Intro\n\nBody text here.', '# Intro\n\nBody text here.');
    expect(scores.text).toBe(1);
    expect(scores.headings).toBe(0);
    expect(scores.headingLevels).toBeNull();
  });

  it('reading order finds reference paragraphs in the candidate however its paragraphs are cut', () => {
    const reference = 'one two three four\n\nfive six seven eight\n\nnine ten eleven twelve';
    expect(
      scoreMarkdown('one two three four five six seven eight\n\nnine ten eleven twelve', reference).readingOrder,
    ).toBe(1);
    expect(
      scoreMarkdown('nine ten eleven twelve\n\nfive six seven eight\n\none two three four', reference).readingOrder,
    ).toBe(-1);
  });

  it('list items and table cells are scored on their texts', () => {
    const scores = scoreMarkdown(
      '- alpha\n- beta\n\n| x | y |\n|---|---|\n| 1 | 2 |',
      '* alpha\n* gamma\n\n| x | y |\n|-|-|\n| 1 | 3 |',
    );
    expect(scores.listItems).toBeCloseTo(0.5);
    expect(scores.tableCells).toBeCloseTo(0.75);
  });

  it('means skip the documents where a score is undefined', () => {
    const mean = meanScores([scoreMarkdown('a b', 'a b'), scoreMarkdown('# h\n\na', '# h\n\na')]);
    expect(mean.text).toEqual({ mean: 1, n: 2 });
    expect(mean.headings).toEqual({ mean: 1, n: 1 });
  });
});

describe('raw HTML tables', () => {
  it('counts the cells of a table written as HTML, as a GFM viewer shows it', () => {
    const doc = readMarkdown(
      'Before\n\n<table>\n<tr><th>Head</th></tr>\n<tr><td colspan="2">A <b>cell</b></td></tr>\n</table>\n\nAfter',
    );
    expect(doc.tableCells).toEqual(['head', 'a cell']);
    expect(doc.words).toEqual(['before', 'head', 'a', 'cell', 'after']);
  });
});

/** An alef (any of its forms) followed by a lam: where PDFium may have written a lam-alef ligature backwards. */
const ALEF_LAM = /[\u0622\u0623\u0625\u0627]\u0644/g;

/**
 * An Arabic lam-alef ligature is one glyph for two letters, and PDFium writes its letters in the glyph's drawn
 * order, alef first ("المشكالت" for "المشكلات", "األولويات" for "الأولويات"). The two letters of one glyph share
 * its box, which two glyphs never do: `oneGlyph(at)` says whether the characters at `at` and `at + 1` do, and
 * those are put back as lam, alef. An alef and a lam drawn apart (the article "ال") are left alone.
 */
export function lamAlefInOrder(text: string, oneGlyph: (at: number) => boolean): string {
  if (!text.includes('\u0644')) return text;
  let fixed: string[] | undefined;
  for (const match of text.matchAll(ALEF_LAM)) {
    const at = match.index;
    if (!oneGlyph(at)) continue;
    fixed ??= text.split('');
    fixed[at] = '\u0644';
    fixed[at + 1] = text[at]!;
  }
  return fixed ? fixed.join('') : text;
}

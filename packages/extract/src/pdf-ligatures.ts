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

/** A letter of the Arabic script: what a kashida stands between. */
const ARABIC_LETTER = /^(?=\p{L})\p{Script=Arabic}$/u;

/** A character's box on the page, as PDFium gives it: left, right, bottom, top. */
type CharBox = [number, number, number, number];

/** How near (in points) a kashida's ends stand to the letters it joins. */
const TOUCHING = 1;

/**
 * Whether the character at `at` is a kashida: a justified Arabic line's words are stretched by a flat stroke
 * drawn between two joined letters (LibreOffice draws it as a glyph of its own, without a Unicode mapping, which
 * PDFium gives as a control character). It is no space: read as one, it breaks the word in two ("باللغ ة").
 * Told from a separator's unmapped glyph by its ink: a stroke much lower than the letters, touching both.
 */
export function isKashida(
  text: string,
  at: number,
  unmapped: (at: number) => boolean,
  boxOf: (at: number) => CharBox | undefined,
): boolean {
  if (text.charCodeAt(at) >= 0x20 || !ARABIC_LETTER.test(text[at - 1] ?? '') || !ARABIC_LETTER.test(text[at + 1] ?? ''))
    return false;
  if (!unmapped(at)) return false;
  const [stroke, before, after] = [boxOf(at), boxOf(at - 1), boxOf(at + 1)];
  if (!stroke || !before || !after) return false;
  const height = (box: CharBox) => box[3] - box[2];
  if (height(stroke) * 2 > Math.min(height(before), height(after))) return false;
  // (Right to left: the letter before stands on its right, the one after on its left.)
  const touches = (left: CharBox, right: CharBox) => Math.abs(right[0] - left[1]) <= TOUCHING;
  return touches(stroke, before) && touches(after, stroke);
}

/** An Arabic vowel or other mark, set over or under the letter before it (fatha, shadda, sukun, a superscript alef). */
const ARABIC_MARK = /^[\u064B-\u065F\u0670]$/u;
/** What such a mark follows: a letter of the Arabic script, or another mark on it (marks are of no script). */
const marked = (char: string) => ARABIC_LETTER.test(char) || ARABIC_MARK.test(char);

/**
 * Whether the space at `at` is half of a mark's spacing form: a font may map a mark's glyph to a space and the mark
 * (as Unicode decomposes the shadda's "isolated form", U+FE7C), which PDFium gives as two characters of one glyph,
 * so that "العربيّة" reads "العربي ّة". A mark belongs to the letter before it: such a space splits a word that has
 * none. It takes no room of its own (`takesNoRoom`): a space the file draws, or one PDFium puts in a gap, does, and
 * stays (a grammar book's "الفتحة َ", the mark shown alone).
 */
export function isSpaceBeforeMark(text: string, at: number, takesNoRoom: (at: number) => boolean): boolean {
  return text[at] === ' ' && ARABIC_MARK.test(text[at + 1] ?? '') && marked(text[at - 1] ?? '') && takesNoRoom(at);
}

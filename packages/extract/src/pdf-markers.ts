import { RIGHT_TO_LEFT } from './words.ts';

/**
 * A bullet's glyph: the usual ones (LaTeX's levels are •, –, ∗ and ·), or a symbol font's glyph that maps to no
 * character (a control or private-use code).
 */
const BULLET_GLYPH = /[•◦▪▫‣⁃●○■□◆◇◾◽❖✦►▶✓✔➔➢➤⦁∙·∗*\-–—\u0001-\u0008\u000e-\u001f\u0080-\u009f\ue000-\uf8ff]/u;
/** Word's second-level bullet, a letter "o" (in Courier New). */
const LETTER_O = /o/u;
/** A check list's box, empty, ticked or crossed. */
const BOX = /[☐☑☒]/u;
/** A list's number (in the digits of any script) or letter before its stop: "12", "b", "iv", "(a", "۱۲". */
const LABEL = /\(?(?:\p{Nd}{1,3}|[a-z]|[ivx]{1,5})/u;
/** A number of two to five levels: "2.3", "2.3.1.4". */
const OUTLINE = /\d{1,2}(?:\.\d{1,2}){1,4}/u;

/** A regular expression written with the pieces above: each `${piece}` stands for that piece's pattern. */
const pattern =
  (flags: string) =>
  (text: TemplateStringsArray, ...pieces: RegExp[]) =>
    new RegExp(String.raw(text, ...pieces.map((piece) => piece.source)), flags);

/** A bullet starting a line, before its item's text. */
export const BULLET = pattern('u')`^\s*(${BULLET_GLYPH})\s+(?=\S)`;
/**
 * A bullet that only ever marks an item, set tight against its text ("•With foo": a slide's bullet drawn apart
 * from its text without a space between them). A dot, a dash or a star against a word is punctuation.
 */
export const TIGHT_BULLET = /^\s*([•◦▪▫‣●○■□◆◇◾◽❖►▶➔➢➤⦁])(?=[\p{L}\p{N}])/u;
/** A number or letter with its stop starting a line ("3.", "b)", "(iv)"), before its item's text. */
export const NUMBER = pattern('u')`^\s*(${LABEL}[.)])\s+(?=\S)`;
/**
 * A right-to-left item's number as PDFium gives it, its stop first (".۱" for "۱."), before the item's first
 * letter in Arabic, Persian or Hebrew, spaced or set tight (".1بعد"). (Before a digit, ".١ ١" is "١.١": a
 * section's number.)
 */
export const NUMBER_STOP_FIRST = pattern('u')`^\s*([.)]\p{Nd}{1,3})\s*(?=\p{L})(?=${RIGHT_TO_LEFT})`;
/**
 * A list's number of several levels ("1.1", "2.3.1."), before a capital or a letter of a script without case
 * ("3.5 million" is a sentence's start), or a number set tight against its item ("42.First").
 */
export const OUTLINE_NUMBER = pattern('u')`^\s*(${OUTLINE}\.?\s+|\d{1,3}\.)(?=[\p{Lu}\p{Lo}])`;
/** Word's second-level bullet starting a line, where it follows a list's item. */
export const LETTER_BULLET = pattern('u')`^\s*${LETTER_O}\s+(?=\S)`;
/** A check box starting a line: a check list's item, the box kept in its text (Markdown's task item). */
export const CHECK_BOX = pattern('u')`^\s*${BOX}\s+(?=\S)`;
/**
 * A list's marker alone in a run (a bullet, "1.", "a)", "4-", "2.3.1", a check box, a symbol font's glyph): list
 * items one under another line up as two columns, marker and text, without being a table. A number of two levels
 * needs its stop ("2.3." is a marker, "2.3" a table's value).
 */
export const MARKER = pattern(
  'iu',
)`^(?:${BULLET_GLYPH}|${LETTER_O}|${BOX}|${LABEL}[.)\-–]|${OUTLINE}\.|\d{1,2}(?:\.\d{1,2}){2,4})$`;

/**
 * The number a numbered item's marker gives as a plain decimal ("3.", "3)", "(3)", and a tagged item's bare "3"):
 * the item's own number. Letters and roman numerals give none.
 */
export function decimalOf(marker: string): number | undefined {
  const digits = /^\s*[.)]?\(?(\p{Nd}{1,3})(?:[.)]|\s|$)/u.exec(marker);
  if (!digits) return undefined;
  // (Arabic-Indic and Persian digits read as the Latin ones, each counted from its block's zero.)
  const latin = digits[1]!.replace(/[\u0660-\u0669\u06f0-\u06f9]/gu, (digit) =>
    String(digit.charCodeAt(0) - (digit >= '\u06f0' ? 0x06f0 : 0x0660)),
  );
  return /^\d+$/.test(latin) ? Number(latin) : undefined;
}

/**
 * A section's number before a heading's words: "2", "2.3", "2.3.1.", with its level in its depth, in the digits
 * of any script (Persian "۲.۳", which PDFium gives as "۲ . ۳").
 */
export const SECTION_NUMBER = /^\s*(\p{Nd}{1,2}(?:\s?\.\s?\p{Nd}{1,2}){0,4})\.?\s+(?=\p{L})/u;

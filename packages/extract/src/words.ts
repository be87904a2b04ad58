const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(WORD)) count++;
  return count;
}

/** Collapses runs of spaces and blank lines that extractors leave behind, keeping paragraph breaks. */
export function normalizeText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // PDFs put NUL and other control characters where a font maps a separator; they are gaps, not text.
      .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, ' ')
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

import { HIGHLIGHT_END, HIGHLIGHT_START } from '@quire/db';

export interface ParsedQuery {
  /** Every word to look for, in the query's order, quoted ones included. */
  words: string[];
  /** Quoted phrases: a passage must hold each word for word. */
  phrases: string[];
  /** Words after a minus sign: a passage must hold none of them. */
  excluded: string[];
}

const TOKEN = /(-?)"([^"]*)"?|(\S+)/g;

/**
 * Web-search syntax, as people type it: `"quoted phrases"`, `-excluded` words, everything else a word that
 * counts when found. `or` needs no operator: any word may be missing (it is a stop word, so it is ignored).
 */
export function parseSearchQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { words: [], phrases: [], excluded: [] };
  for (const [, minus, quoted, bare] of query.matchAll(TOKEN)) {
    if (quoted !== undefined) {
      const phrase = quoted.trim();
      if (!phrase) continue;
      if (minus) parsed.excluded.push(...phrase.split(/\s+/));
      else {
        parsed.phrases.push(phrase);
        parsed.words.push(...phrase.split(/\s+/));
      }
    } else if (bare!.length > 1 && bare!.startsWith('-')) parsed.excluded.push(bare!.slice(1));
    else parsed.words.push(bare!);
  }
  return parsed;
}

export interface Highlight {
  start: number;
  end: number;
}

/**
 * Offsets (JavaScript string indexes into the passage's text) of the words Postgres marked; none when the
 * marked text is not the passage plus markers (a passage holding the marker characters itself).
 */
export function highlightsOf(text: string, marked: string): Highlight[] {
  const highlights: Highlight[] = [];
  let plain = '';
  let start = -1;
  for (const char of marked) {
    if (char === HIGHLIGHT_START) start = plain.length;
    else if (char === HIGHLIGHT_END && start !== -1) {
      highlights.push({ start, end: plain.length });
      start = -1;
    } else plain += char;
  }
  return plain === text ? highlights : [];
}

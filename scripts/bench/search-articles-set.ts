import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { EVAL_DIR } from './html-eval.ts';

/**
 * The real-article relevance set: trafilatura's 990 evaluation pages (`test/fixtures/web-eval`, Apache-2.0) as
 * documents, and known-item queries made by a fixed rule from the segments its authors marked as each page's
 * main text (`evaldata.json` `with`), the page being the one right answer. Nobody here picks a query.
 *
 * - Characters nobody types are taken out of the segments first: soft hyphens (the set keeps some pages' `&shy;`,
 *   "of\u00adfen\u00adbar") and zero-width spaces and joiners.
 * - A segment another page also lists is dropped (it does not tell its page apart).
 * - A word is common when it occurs in the segments (`with` and `without`) of more than `COMMON_PAGES` pages:
 *   the set's own stop words ("der", "und", "the", "Impressum"), found without a language's list.
 * - `natural`: the uncommon words (2 letters or more, 30 at most, so that an unspaced Chinese sentence is not a
 *   word) of the page's segment that has most of them, in their order, 3 to 6 of them (as many as the segment
 *   has, at most 6): a few remembered words, as people type them.
 * - `phrase`: a run of 3 to 5 consecutive words (split at white space, punctuation inside kept, around it not), in
 *   quotes, from the page's other segment with most words (the same one when it has no other of 3 words), starting
 *   at its first uncommon word (or earlier, to have 3): a remembered quote.
 * - A segment's first or last word is left out when the segment cut it out of a longer word, as the page's HTML
 *   shows ("acebook" of "Facebook"; see `wholeTokens`): nobody types half a word.
 * - A page without such a segment has no query of that kind.
 *
 * Pages are split once into a tuning half and a held-out half by a hash of the file name (`halfOf`); every query
 * is ranked over all 990 pages, and only the queries are split, by their page.
 */

export const COMMON_PAGES = 10;
const NATURAL_MAX = 6;
const NATURAL_MIN = 3;
const PHRASE_MIN = 3;
const PHRASE_MAX = 5;

export type Half = 'tuning' | 'held-out';
export type ArticleQueryKind = 'natural' | 'phrase';

export interface ArticlePage {
  url: string;
  /** The file name as `evaldata.json` gives it (its bytes are `html/FILE.gz`). */
  file: string;
  with: string[];
  without: string[];
  half: Half;
  /** The page's HTML as UTF-8, to tell a segment's cut-off edge words (see `wholeTokens`). */
  html?: string;
}

export interface ArticleQuery {
  kind: ArticleQueryKind;
  query: string;
  /** The file of the one right page. */
  answer: string;
  half: Half;
}

/** FNV-1a of the file name, even for tuning: fixed here, so the held-out half stays the same from run to run. */
export function halfOf(file: string): Half {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 2 === 0 ? 'tuning' : 'held-out';
}

const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** A segment as someone would type it: without the characters no one types. */
const typed = (segment: string) => segment.replace(INVISIBLE, '').trim();

/** Words as the yardstick BM25 reads them: runs of letters and digits. */
export const wordsOf = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

export async function readArticlePages(dir = EVAL_DIR): Promise<ArticlePage[]> {
  const data = JSON.parse(await fs.readFile(path.join(dir, 'evaldata.json'), 'utf8')) as Record<
    string,
    { file: string; with: string[]; without: string[] }
  >;
  const pages = Object.entries(data)
    .map(([url, item]) => ({ url, file: item.file, with: item.with, without: item.without, half: halfOf(item.file) }))
    .sort((a, b) => a.file.localeCompare(b.file));
  const utf8 = new TextDecoder('utf-8');
  for (const page of pages) (page as ArticlePage).html = utf8.decode(await readArticleHtml(page, dir));
  return pages;
}

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/** Whether `word` stands in the HTML only inside longer words (`side`: with a letter or digit before it, or after it). */
function onlyInsideWords(word: string, html: string, side: 'before' | 'after'): boolean {
  let seen = false;
  for (let at = html.indexOf(word); at !== -1; at = html.indexOf(word, at + 1)) {
    seen = true;
    if (!isWordChar(side === 'before' ? html[at - 1] : html[at + word.length])) return false;
  }
  return seen;
}

/**
 * The segment's words split at white space, without a first or last one the segment cut out of a longer word:
 * the HTML holds the segment only with a letter or digit beside it on that side, or (where markup inside the
 * segment hides it) holds that word only so ("acebook" of "Facebook").
 */
export function wholeTokens(segment: string, html = ''): string[] {
  const tokens = segment.split(/\s+/).filter((t) => wordsOf(t).length > 0);
  if (tokens.length === 0) return tokens;
  const first = tokens[0]!;
  const last = tokens.at(-1)!;
  const from = isWordChar(first[0]) && onlyInsideWords(wordsOf(first)[0]!, html, 'before') ? 1 : 0;
  const to =
    isWordChar(last.at(-1)) && onlyInsideWords(wordsOf(last).at(-1)!, html, 'after')
      ? tokens.length - 1
      : tokens.length;
  return tokens.slice(from, Math.max(from, to));
}

export async function readArticleHtml(page: ArticlePage, dir = EVAL_DIR): Promise<Buffer> {
  return gunzipSync(await fs.readFile(path.join(dir, 'html', `${page.file}.gz`)));
}

/** The queries of every page by the rule above, in the pages' order. */
export function buildArticleQueries(pages: ArticlePage[]): ArticleQuery[] {
  const listedBy = new Map<string, Set<string>>();
  const pagesOfWord = new Map<string, Set<string>>();
  for (const page of pages) {
    for (const segment of page.with) {
      const key = typed(segment);
      listedBy.set(key, (listedBy.get(key) ?? new Set()).add(page.file));
    }
    for (const segment of [...page.with, ...page.without]) {
      for (const word of wordsOf(typed(segment).toLowerCase()))
        pagesOfWord.set(word, (pagesOfWord.get(word) ?? new Set()).add(page.file));
    }
  }
  const uncommon = (word: string) =>
    word.length >= 2 && word.length <= 30 && (pagesOfWord.get(word.toLowerCase())?.size ?? 0) <= COMMON_PAGES;

  const queries: ArticleQuery[] = [];
  for (const page of pages) {
    const own = page.with.map(typed).filter((s) => listedBy.get(s)!.size === 1);
    const rich = own
      .map((segment, order) => {
        const tokens = wholeTokens(segment, page.html);
        return { tokens, words: tokens.flatMap(wordsOf), order };
      })
      .sort(
        (a, b) =>
          b.words.filter(uncommon).length - a.words.filter(uncommon).length ||
          b.words.length - a.words.length ||
          a.order - b.order,
      );
    const natural = rich[0] ? [...new Set(rich[0].words.filter(uncommon))].slice(0, NATURAL_MAX) : [];
    if (natural.length >= NATURAL_MIN)
      queries.push({ kind: 'natural', query: natural.join(' '), answer: page.file, half: page.half });

    // Whitespace-separated, as a quote is copied: punctuation inside the run stays, around it goes.
    const longest = [...rich].sort((a, b) => b.words.length - a.words.length || a.order - b.order);
    const source = longest.find((s) => s !== rich[0] && s.words.length >= PHRASE_MIN) ?? rich[0];
    const tokens = source?.tokens ?? [];
    const start = tokens.findIndex((t) => wordsOf(t).some(uncommon));
    if (start !== -1) {
      const from = Math.max(0, Math.min(start, tokens.length - PHRASE_MIN));
      const run = tokens
        .slice(from, from + PHRASE_MAX)
        .join(' ')
        .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (tokens.length >= PHRASE_MIN)
        queries.push({ kind: 'phrase', query: `"${run}"`, answer: page.file, half: page.half });
    }
  }
  return queries;
}

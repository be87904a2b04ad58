import { Lexer, type Token, type Tokens } from 'marked';
import { parseFragment } from 'parse5';

/** What a Markdown document says, read by a CommonMark+GFM parser so that escapes and syntax never count as text. */
export interface MarkdownStructure {
  /** Every word of the document's text, normalized, in order. */
  words: string[];
  headings: { text: string; level: number }[];
  /** A list item's own text (without the lists nested in it), normalized. */
  listItems: string[];
  /** Every non-empty table cell's text, normalized. */
  tableCells: string[];
  /** The blocks of running text (paragraphs, headings, list items) in order, normalized. */
  blocks: string[];
}

export interface StructureScores {
  /** F1 of the words (as multisets). */
  text: number | null;
  /** F1 of the headings' normalized texts. */
  headings: number | null;
  /** Of the matched headings, the share whose level agrees once each document's top level is 1. */
  headingLevels: number | null;
  /** F1 of the list items' normalized texts. */
  listItems: number | null;
  /** F1 of the table cells' normalized texts. */
  tableCells: number | null;
  /** Kendall tau of the reference's blocks found in the candidate, by where they are found. */
  readingOrder: number | null;
}

/** Lower case, compatibility forms folded, punctuation dropped: what a reader would call the same words. */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The plain text of inline tokens: escapes resolved, markup and raw HTML (Docling's `<!-- image -->`) left out. */
function inlineText(tokens: Token[] | undefined): string {
  if (!tokens) return '';
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'html':
          return '';
        case 'br':
          return ' ';
        case 'text':
        case 'escape':
        case 'codespan':
          return 'tokens' in token && token.tokens ? inlineText(token.tokens) : decodeEntities(token.text);
        default:
          return 'tokens' in token && token.tokens
            ? inlineText(token.tokens)
            : 'text' in token
              ? String(token.text)
              : '';
      }
    })
    .join('');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
/** marked leaves `&amp;`-style entities in text tokens; the words are the characters they stand for. */
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

interface HtmlNode {
  nodeName: string;
  value?: string;
  childNodes?: HtmlNode[];
}

const htmlText = (node: HtmlNode): string =>
  node.nodeName === '#text' ? (node.value ?? '') : (node.childNodes ?? []).map(htmlText).join(' ');

/** The cells' texts of the HTML tables in a raw HTML block. */
function htmlTableCells(html: string): string[] {
  if (!/<t[dh][\s>]/i.test(html)) return [];
  const cells: string[] = [];
  const visit = (node: HtmlNode) => {
    if (node.nodeName === 'td' || node.nodeName === 'th') cells.push(htmlText(node));
    else for (const child of node.childNodes ?? []) visit(child);
  };
  visit(parseFragment(html));
  return cells;
}

export function readMarkdown(markdown: string): MarkdownStructure {
  const out: MarkdownStructure = { words: [], headings: [], listItems: [], tableCells: [], blocks: [] };
  const addText = (text: string, block: boolean) => {
    const normalized = normalize(text);
    if (!normalized) return normalized;
    out.words.push(...normalized.split(' '));
    if (block) out.blocks.push(normalized);
    return normalized;
  };
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const text = addText(inlineText(token.tokens), true);
          if (text) out.headings.push({ text, level: token.depth as number });
          break;
        }
        case 'paragraph':
          addText(inlineText(token.tokens), true);
          break;
        case 'text':
          // A tight list item's text, or text beside blocks.
          addText('tokens' in token && token.tokens ? inlineText(token.tokens) : token.text, true);
          break;
        case 'code':
          addText(token.text as string, true);
          break;
        case 'list':
          for (const item of (token as Tokens.List).items) {
            const own = item.tokens.filter((child) => child.type !== 'list');
            const text = normalize(own.map((child) => ('tokens' in child ? inlineText(child.tokens) : '')).join(' '));
            if (text) out.listItems.push(text);
            walk(item.tokens);
          }
          break;
        case 'table': {
          const table = token as Tokens.Table;
          for (const cell of [...table.header, ...table.rows.flat()]) {
            const text = addText(inlineText(cell.tokens), false);
            if (text) out.tableCells.push(text);
          }
          break;
        }
        case 'blockquote':
          walk(token.tokens ?? []);
          break;
        case 'html':
          // GFM passes raw HTML through, and a converter writes a table Markdown cannot hold (merged cells) as one.
          for (const cell of htmlTableCells(token.text as string)) {
            const text = addText(cell, false);
            if (text) out.tableCells.push(text);
          }
          break;
        default:
          break;
      }
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return out;
}

/** F1 of two multisets; null when both are empty (nothing to find, nothing found). */
export function multisetF1(candidate: string[], reference: string[]): number | null {
  if (candidate.length === 0 && reference.length === 0) return null;
  if (candidate.length === 0 || reference.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const item of reference) counts.set(item, (counts.get(item) ?? 0) + 1);
  let matched = 0;
  for (const item of candidate) {
    const left = counts.get(item) ?? 0;
    if (left > 0) {
      matched++;
      counts.set(item, left - 1);
    }
  }
  return (2 * matched) / (candidate.length + reference.length);
}

/**
 * The share of headings found in both whose levels agree, each document's levels shifted so that its top
 * level is 1 (a title as `#` above `##` sections reads the same as sections at `#`). Headings are paired in
 * order, each reference heading with the first unpaired candidate heading of the same text.
 */
export function headingLevelAgreement(
  candidate: MarkdownStructure['headings'],
  reference: MarkdownStructure['headings'],
): number | null {
  const top = (headings: MarkdownStructure['headings']) => Math.min(...headings.map((h) => h.level));
  if (candidate.length === 0 || reference.length === 0) return null;
  const shiftCandidate = top(candidate) - 1;
  const shiftReference = top(reference) - 1;
  const used = new Set<number>();
  let pairs = 0;
  let agree = 0;
  for (const heading of reference) {
    const index = candidate.findIndex((other, i) => !used.has(i) && other.text === heading.text);
    if (index < 0) continue;
    used.add(index);
    pairs++;
    if (candidate[index]!.level - shiftCandidate === heading.level - shiftReference) agree++;
  }
  return pairs === 0 ? null : agree / pairs;
}

/** Kendall's tau-a of a sequence of positions against their order: 1 when increasing, -1 when reversed. */
export function kendallTau(positions: number[]): number | null {
  const n = positions.length;
  if (n < 2) return null;
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if (positions[j]! > positions[i]!) concordant++;
      else if (positions[j]! < positions[i]!) discordant++;
    }
  return (concordant - discordant) / ((n * (n - 1)) / 2);
}

/** Blocks shorter than this are too common to say where they stand. */
const MIN_BLOCK_WORDS = 4;

/**
 * Reading order: each reference block (paragraph, heading, list item) of a few words that occurs once in the
 * reference is looked for in the candidate's running words, so a paragraph split or joined otherwise still
 * counts; the order in which the found ones appear is compared with the reference's.
 */
export function readingOrder(candidate: MarkdownStructure, reference: MarkdownStructure): number | null {
  const haystack = ` ${candidate.words.join(' ')} `;
  const seen = new Map<string, number>();
  for (const block of reference.blocks) seen.set(block, (seen.get(block) ?? 0) + 1);
  const positions: number[] = [];
  for (const block of reference.blocks) {
    if (seen.get(block) !== 1 || block.split(' ').length < MIN_BLOCK_WORDS) continue;
    const needle = ` ${block} `;
    const at = haystack.indexOf(needle);
    if (at < 0 || haystack.indexOf(needle, at + 1) >= 0) continue;
    positions.push(at);
  }
  return kendallTau(positions);
}

export function scoreMarkdown(candidateMarkdown: string, referenceMarkdown: string): StructureScores {
  const candidate = readMarkdown(candidateMarkdown);
  const reference = readMarkdown(referenceMarkdown);
  return {
    text: multisetF1(candidate.words, reference.words),
    headings: multisetF1(
      candidate.headings.map((h) => h.text),
      reference.headings.map((h) => h.text),
    ),
    headingLevels: headingLevelAgreement(candidate.headings, reference.headings),
    listItems: multisetF1(candidate.listItems, reference.listItems),
    tableCells: multisetF1(candidate.tableCells, reference.tableCells),
    readingOrder: readingOrder(candidate, reference),
  };
}

export const SCORE_NAMES = ['text', 'headings', 'headingLevels', 'listItems', 'tableCells', 'readingOrder'] as const;

/** The mean of each score over the documents where it is defined, and how many those are. */
export function meanScores(
  scores: StructureScores[],
): Record<(typeof SCORE_NAMES)[number], { mean: number | null; n: number }> {
  const result = {} as Record<(typeof SCORE_NAMES)[number], { mean: number | null; n: number }>;
  for (const name of SCORE_NAMES) {
    const values = scores.map((s) => s[name]).filter((v): v is number => v !== null);
    result[name] = { mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null, n: values.length };
  }
  return result;
}

/**
 * The labelled set of the search benchmark, generated (deterministically, from a seed) by this file alone:
 * nothing is downloaded and nothing is copied from elsewhere. Documents are made of invented words, so no
 * query can be answered from knowledge of English, and every right answer is known by construction.
 *
 * - Background prose: words drawn from a Zipf distribution (a few very common, a long tail of rare ones), as
 *   in natural text.
 * - Documents come in clusters of ten on one subject: each holds four of its subject's eight words and three
 *   words of its own (which a few other documents use too), repeated a few times and spread over its sections: one section per passage, so a multi-word query rarely finds all its words in
 *   one passage (the situation the issue describes).
 * - Each document holds one signature phrase (two of its topic words side by side); two other documents hold
 *   the same two words apart, so only the order and adjacency of the words tell the right one.
 *
 * Queries, each with its one right document:
 * - `natural`: three to five of the document's topic words in any order, sometimes an inflected form ("-s")
 *   and sometimes a word from another document, as people type them;
 * - `phrase`: the signature phrase in quotes;
 * - `misspelled`: a natural query with one word mistyped (a letter dropped, doubled or two swapped).
 */

export interface LabelledDocument {
  id: string;
  name: string;
  text: string;
}

export type QueryKind = 'natural' | 'phrase' | 'misspelled';

export interface LabelledQuery {
  kind: QueryKind;
  query: string;
  /** The id of the one right document. */
  answer: string;
}

export interface LabelledSet {
  documents: LabelledDocument[];
  queries: LabelledQuery[];
}

/** mulberry32: a small, seedable PRNG, so every run builds the same set. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'z',
  'br',
  'tr',
  'st',
  'pl',
  'gr',
  'sh',
  'th',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea'];
const CODAS = ['', '', '', 'n', 'r', 'l', 'm', 'x', 'nd', 'rt'];

/** A vocabulary of distinct invented words of `minSyllables`..`minSyllables + 2` syllables. */
export function inventWords(
  random: () => number,
  count: number,
  minSyllables: number,
  taken = new Set<string>(),
): string[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const words: string[] = [];
  while (words.length < count) {
    const syllables = minSyllables + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS);
    word += pick(CODAS);
    if (taken.has(word)) continue;
    taken.add(word);
    words.push(word);
  }
  return words;
}

/** Samples indexes 0..n-1 with probability proportional to 1/(rank+1). */
export function zipfSampler(random: () => number, n: number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) cumulative.push((total += 1 / (i + 1)));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function mistype(random: () => number, word: string): string {
  const at = 1 + Math.floor(random() * (word.length - 2));
  const how = Math.floor(random() * 3);
  if (how === 0) return word.slice(0, at) + word.slice(at + 1);
  if (how === 1) return word.slice(0, at) + word[at] + word.slice(at);
  return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

const SECTION_WORDS = 130;
const CLUSTER = 10;

export function buildLabelledSet(options: { documents: number; queriesPerKind: number; seed?: number }): LabelledSet {
  const random = seededRandom(options.seed ?? 20);
  const taken = new Set<string>();
  const background = inventWords(random, 3000, 1, taken);
  const nextBackground = zipfSampler(random, background.length);
  const int = (n: number) => Math.floor(random() * n);
  const shuffled = <T>(xs: T[]) => {
    const copy = [...xs];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  };
  // Documents come in clusters on one subject (eight words, four in each document) and add three words of
  // their own, each of which a few other documents use too.
  const subjects = Array.from({ length: Math.ceil(options.documents / CLUSTER) }, () =>
    inventWords(random, 8, 2, taken),
  );
  const particular = inventWords(random, Math.ceil(options.documents / 3), 2, taken);

  const docs = Array.from({ length: options.documents }, (_, d) => {
    const words = new Set(shuffled(subjects[Math.floor(d / CLUSTER)]!).slice(0, 4));
    while (words.size < 7) words.add(particular[int(particular.length)]!);
    const sections = 1 + int(4);
    const body = Array.from({ length: sections }, () =>
      Array.from({ length: SECTION_WORDS }, () => background[nextBackground()]!),
    );
    return { id: `doc-${String(d + 1).padStart(4, '0')}`, topicWords: [...words], body };
  });

  // Topic words are scattered over the sections, a few times each, never next to one another on purpose.
  const scatter = (body: string[][], word: string, times: number, section?: number) => {
    for (let i = 0; i < times; i++) {
      const s = section ?? int(body.length);
      body[s]!.splice(1 + int(body[s]!.length - 1), 0, word);
    }
  };
  for (const doc of docs) doc.topicWords.forEach((word, i) => scatter(doc.body, word, 1 + int(3), i % doc.body.length));

  const phrases = docs.map((doc, d) => {
    const [first, second] = shuffled(doc.topicWords);
    const section = doc.body[int(doc.body.length)]!;
    section.splice(1 + int(section.length - 1), 0, first!, second!);
    // Two other documents hold both words more often, apart and in the other order.
    for (let k = 1; k <= 2; k++) {
      const other = docs[(d + k * 7) % docs.length]!;
      scatter(other.body, second!, 2, 0);
      scatter(other.body, first!, 2, other.body.length - 1);
    }
    return `${first} ${second}`;
  });

  const sentence = (words: string[]) =>
    words.map((w, i) => (i % 12 === 0 ? w[0]!.toUpperCase() + w.slice(1) : w) + (i % 12 === 11 ? '.' : '')).join(' ') +
    '.';
  const documents = docs.map((doc, d) => ({
    id: doc.id,
    name: `Article ${d + 1}`,
    text: doc.body.map(sentence).join('\n\n'),
  }));

  const naturalQuery = (doc: (typeof docs)[number]) => {
    const words = shuffled(doc.topicWords).slice(0, 3 + int(3));
    if (random() < 0.3) words[int(words.length)] += 's';
    if (random() < 0.3) words.splice(int(words.length + 1), 0, particular[int(particular.length)]!);
    return words;
  };
  const order = shuffled(docs.map((_, d) => d));
  const queries: LabelledQuery[] = [];
  for (let q = 0; q < options.queriesPerKind; q++) {
    const d = order[q % order.length]!;
    const doc = docs[d]!;
    queries.push({ kind: 'natural', query: naturalQuery(doc).join(' '), answer: doc.id });
    queries.push({ kind: 'phrase', query: `"${phrases[d]}"`, answer: doc.id });
    const typo = naturalQuery(docs[order[(q + options.queriesPerKind) % order.length]!]!);
    const at = typo.findIndex((w) => w.length >= 6);
    typo[at === -1 ? 0 : at] = mistype(random, typo[at === -1 ? 0 : at]!);
    queries.push({
      kind: 'misspelled',
      query: typo.join(' '),
      answer: docs[order[(q + options.queriesPerKind) % order.length]!]!.id,
    });
  }
  return { documents, queries };
}

export interface ShingleScore {
  precision: number;
  recall: number;
  f1: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const SIZE = 4;

/** Counts of each run of 4 consecutive lower-cased words; a text of fewer words is one shorter shingle. */
function shingles(text: string): Map<string, number> {
  const words = (text.toLowerCase().match(WORD) ?? []) as string[];
  const counts = new Map<string, number>();
  const last = Math.max(1, words.length - SIZE + 1);
  for (let i = 0; i < last && words.length > 0; i++) {
    const key = words.slice(i, i + SIZE).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * How much of `extracted` is the article (precision) and how much of the article it holds (recall), over
 * multisets of 4-word shingles: the measure of the article-extraction benchmarks the issue quotes.
 */
export function shingleScore(extracted: string, gold: string): ShingleScore {
  const got = shingles(extracted);
  const want = shingles(gold);
  let common = 0;
  for (const [key, count] of got) common += Math.min(count, want.get(key) ?? 0);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const gotTotal = total(got);
  const wantTotal = total(want);
  // Nothing extracted from an empty article is right; anything extracted from one is noise.
  const precision = gotTotal === 0 ? (wantTotal === 0 ? 1 : 0) : common / gotTotal;
  const recall = wantTotal === 0 ? 1 : common / wantTotal;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

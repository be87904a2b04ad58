const WORD = /[\p{L}\p{N}]+/gu;

function bag(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** Word F1 of `got` against `want`: multisets of lower-cased words, the harmonic mean of precision and recall. */
export function wordF1(got: string, want: string): number {
  const a = bag(got);
  const b = bag(want);
  let common = 0;
  for (const [word, count] of a) common += Math.min(count, b.get(word) ?? 0);
  const total = (m: Map<string, number>) => [...m.values()].reduce((sum, n) => sum + n, 0);
  if (common === 0) return 0;
  const precision = common / total(a);
  const recall = common / total(b);
  return (2 * precision * recall) / (precision + recall);
}

import { describe, expect, it } from 'vitest';
import { relevanceScore } from './search.service.ts';

describe('relevanceScore', () => {
  it('maps raw scores into 0..1 without changing their order', () => {
    const raw = [0, 0.3, 1.7, 4.2, 4.2000001, 42.9, 1e6];
    const scored = raw.map((r) => relevanceScore(r, 4.2));
    for (const s of scored) expect(s >= 0 && s < 1).toBe(true);
    for (let i = 1; i < scored.length; i++) expect(scored[i]).toBeGreaterThan(scored[i - 1]!);
    expect(relevanceScore(4.2, 4.2)).toBe(0.5);
  });

  it('is 0 for nothing found', () => {
    expect(relevanceScore(0, 3)).toBe(0);
    expect(relevanceScore(2, 0)).toBe(0);
  });
});

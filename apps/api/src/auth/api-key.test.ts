import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, hashesEqual, parseApiKey } from './api-key.ts';

describe('api keys', () => {
  it('are unique, parse back to their prefix, and are stored only as a SHA-256 hash', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.apiKey).toMatch(/^qk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(a.apiKey)).toEqual({ prefix: a.prefix });
    expect(a.hash).toHaveLength(32);
    expect(a.hash.toString('hex')).not.toContain(a.apiKey);
    expect(hashesEqual(hashApiKey(a.apiKey), a.hash)).toBe(true);
    expect(hashesEqual(hashApiKey(b.apiKey), a.hash)).toBe(false);
  });

  it('rejects strings that are not keys', () => {
    for (const s of [
      '',
      'qk_',
      'qk_short_x',
      `xx_${'a'.repeat(12)}_${'b'.repeat(43)}`,
      `qk_${'a'.repeat(12)}_${'b'.repeat(44)}`,
    ]) {
      expect(parseApiKey(s)).toBeNull();
    }
  });
});

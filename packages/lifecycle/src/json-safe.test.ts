import { describe, expect, it } from 'vitest';
import { jsonSafe } from './json-safe.ts';

describe('jsonSafe', () => {
  it('replaces NUL and unpaired surrogates everywhere, keeps everything else', () => {
    const input = {
      title: 'a\u0000b',
      list: ['x\ud800', '\udc00y', 'ok 😀'],
      nested: { 'k\u0000': 3, flag: true, none: null },
    };
    expect(jsonSafe(input)).toEqual({
      title: 'a\ufffdb',
      list: ['x\ufffd', '\ufffdy', 'ok 😀'],
      nested: { 'k\ufffd': 3, flag: true, none: null },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ROUTES } from './index.ts';

describe('the route table', () => {
  it('declares each method and path once', () => {
    const keys = ROUTES.map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('guards every /api route with the API key and nothing outside /api', () => {
    for (const route of ROUTES)
      expect(route.auth === 'apiKey', `${route.method} ${route.path}`).toBe(route.path.startsWith('/api/'));
  });
});

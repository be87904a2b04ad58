import { describe, expect, it } from 'vitest';
import { ROUTES } from './index.ts';
import { routeFinder } from './route-finder.ts';

const findRoute = routeFinder(ROUTES);
const found = (method: string, path: string) => {
  const match = findRoute(method, path);
  return match && { route: `${match.route.method.toUpperCase()} ${match.route.path}`, params: match.params };
};
const ID = '0193a0c4-7d2e-7000-8000-000000000001';

describe('finding a request’s route as Express did', () => {
  it('finds every declared route by its own path', () => {
    for (const route of ROUTES) {
      const path = route.path.replace(/\{(\w+)\}/g, 'x');
      expect(found(route.method.toUpperCase(), path)?.route, path).toBe(`${route.method.toUpperCase()} ${route.path}`);
    }
  });

  it('takes a literal segment before a parameter, whatever the declaration order', () => {
    expect(found('GET', '/api/v1/folders/tree')?.route).toBe('GET /api/v1/folders/tree');
    expect(found('GET', `/api/v1/folders/${ID}`)).toEqual({ route: 'GET /api/v1/folders/{id}', params: { id: ID } });
    expect(found('POST', '/api/v1/materials/bulk/move')?.route).toBe('POST /api/v1/materials/bulk/move');
    expect(found('POST', `/api/v1/materials/${ID}/move`)?.route).toBe('POST /api/v1/materials/{id}/move');
  });

  it('ignores letter case and a trailing slash in the path, and keeps a parameter’s own case', () => {
    expect(found('GET', '/API/V1/Materials/')?.route).toBe('GET /api/v1/materials');
    expect(found('GET', '/api/v1/materials/AbC/')).toEqual({
      route: 'GET /api/v1/materials/{id}',
      params: { id: 'AbC' },
    });
  });

  it('answers HEAD with the GET route', () => {
    expect(found('HEAD', `/api/v1/materials/${ID}`)?.route).toBe('GET /api/v1/materials/{id}');
  });

  it('decodes parameters', () => {
    expect(found('GET', '/api/v1/materials/a%20b')?.params).toEqual({ id: 'a b' });
  });

  it('finds nothing for another method, an empty parameter, an undecodable one or an unknown path', () => {
    expect(found('PATCH', '/api/v1/materials')).toBeUndefined();
    expect(found('GET', '/api/v1/materials//text')).toBeUndefined();
    expect(found('GET', '/api/v1/materials/%E0%A4%A')).toBeUndefined();
    expect(found('GET', '/api/v1/nothing')).toBeUndefined();
    expect(found('GET', '//api/v1/materials')).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, createApp } from '@quire/api';
import { OpenApiResponseChecker, startTestStack, type TestStack } from '@quire/testkit';

let stack: TestStack;
beforeAll(async () => {
  // The local storage driver and an admin token, so that every optional router is mounted too.
  stack = await startTestStack({ worker: false, config: { ADMIN_TOKEN: 'admin-token-0123456789' } });
});
afterAll(() => stack?.close());

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  name: string;
  rawPath?: string;
  handle: { stack?: Layer[]; served?: { method: string; path: string }[] };
}

const routePath = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);
const mountPath = (prefix: string, path = '/') => (path === '/' ? prefix : `${prefix}${path}`);

/**
 * Every method + path the app routes: routes added to Express, walking mounted routers (bull-board's own app is
 * not walked), and the declared routes the route table's dispatch serves.
 */
function registeredRoutes(layers: Layer[], prefix = ''): string[] {
  return layers.flatMap((layer) => {
    if (layer.handle.served) return layer.handle.served.map((route) => `${route.method.toUpperCase()} ${route.path}`);
    if (layer.route) {
      const path = routePath(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}');
      return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    }
    if (layer.name === 'router' && layer.handle.stack)
      return registeredRoutes(layer.handle.stack, mountPath(prefix, layer.rawPath));
    return [];
  });
}

describe('the OpenAPI document', () => {
  it('documents every route the app registers, and nothing else', () => {
    const app = createApp(stack.api) as unknown as { router: { stack: Layer[] } };
    const registered = new Set(registeredRoutes(app.router.stack));
    const document = buildOpenApiDocument();
    const documented = new Set(
      Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const undocumented = [...registered].filter((route) => !documented.has(route));
    const unregistered = [...documented].filter((route) => !registered.has(route));
    expect(
      undocumented,
      'registered but not documented: declare each route in apps/api/src/routes/<resource>.routes.ts (listed in routes/index.ts) instead of adding it to the app by hand',
    ).toEqual([]);
    expect(unregistered, 'documented but not registered: remove or fix these entries').toEqual([]);
    expect(registered.size).toBeGreaterThan(30);
  });

  it('is served at /openapi.json without a key: OpenAPI 3.1, the x-api-key scheme, and both error bodies', async () => {
    const res = await fetch(`${stack.url}/openapi.json`);
    expect(res.status).toBe(200);
    const document: any = await res.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    expect(document.components.schemas.Unauthorized).toMatchObject({
      properties: { error: { enum: ['Unauthorized'] } },
      required: ['error'],
    });
    expect(document.components.schemas.ErrorBody.required).toEqual(['statusCode', 'error', 'message']);

    const upload = document.paths['/api/v1/materials/upload'].post;
    expect(upload.security).toEqual([{ ApiKey: [] }]);
    const fields = upload.requestBody.content['multipart/form-data'].schema;
    expect(fields.required).toEqual(['name', 'file']);
    expect(fields.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(upload.responses).sort()).toEqual([
      '201',
      '400',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
    expect(upload.responses['403'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Unauthorized',
    });

    // Request documentation comes from the validating zod schemas: their limits show through.
    const list = document.paths['/api/v1/materials'].get.parameters;
    expect(list.find((p: { name: string }) => p.name === 'limit')).toMatchObject({
      in: 'query',
      schema: { minimum: 1, maximum: 200, default: 20 },
    });
    expect(document.webhooks['material.processed'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WebhookEvent',
    });
  });

  it('has an interactive reference at /docs whose assets all come from this server', async () => {
    const res = await fetch(`${stack.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const html = await res.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const asset of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect((await fetch(`${stack.url}${asset[1]}`)).status, asset[1]).toBe(200);
    }
  });

  it('is what integration responses are checked against, and the check catches a body or status it does not describe', async () => {
    const checker = new OpenApiResponseChecker();
    const answer = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const url = `${stack.url}/api/v1/materials/0193`;
    await expect(
      checker.check('GET', url, answer(404, { statusCode: 404, error: 'Not Found', message: 'Material not found' })),
    ).resolves.toBeUndefined();
    await expect(checker.check('GET', url, answer(200, { _id: 'x', name: 'missing most fields' }))).rejects.toThrow(
      /does not match/,
    );
    await expect(checker.check('GET', url, answer(418, {}))).rejects.toThrow(/does not list/);
    await expect(checker.check('GET', url, answer(403, { error: 'Forbidden' }))).rejects.toThrow(/does not match/);
  });
});

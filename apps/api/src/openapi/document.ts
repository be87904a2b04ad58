import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ROUTES } from '../routes/index.ts';
import { isApiRoute, type AnyRoute } from '../routes/route.ts';
import {
  API_KEY_SCHEME,
  documentApiRoute,
  idempotencyHeader,
  jsonBody,
  multipartBody,
  type OpenApiDocument,
} from './common.ts';

export type { OpenApiDocument } from './common.ts';
import { documentWebhooks } from './webhooks.ts';

const METRICS_TOKEN_SCHEME = 'MetricsToken';

/** The OpenAPI 3.1 document of a route table (by default the api's), plus the webhooks quire sends. */
export function buildOpenApiDocument(routes: readonly AnyRoute[] = ROUTES): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'An API key made with `npm run admin -- key create`; it belongs to one organization (and optionally one group).',
  });
  registry.registerComponent('securitySchemes', METRICS_TOKEN_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'Only when `METRICS_TOKEN` is set',
  });
  for (const route of routes) documentRoute(registry, route);
  documentWebhooks(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'quire',
      version: '1.0.0',
      description:
        "Stores an organization's learning materials, turns every upload into searchable text and images, and reports how the students of a group use the platform.",
    },
    tags: [
      { name: 'Materials' },
      { name: 'Folders' },
      { name: 'Usage events', description: 'How the platform that runs lectures and tests reports activity' },
      { name: 'Group analytics' },
      { name: 'Storage', description: 'Signed upload/download URLs of the local-disk storage driver' },
      { name: 'Operations', description: 'Health, metrics and this documentation; no API key' },
    ],
  });
}

function documentRoute(registry: OpenAPIRegistry, route: AnyRoute): void {
  const { method, path, tags, summary, description, responses } = route;
  const about = { method, path, tags, summary, ...(description ? { description } : {}) };
  if (!isApiRoute(route)) {
    const security: Record<string, string[]>[] =
      route.auth === 'metricsToken' ? [{}, { [METRICS_TOKEN_SCHEME]: [] }] : [];
    registry.registerPath({ ...about, security, ...(route.request ? { request: route.request } : {}), responses });
    return;
  }
  const request: RouteConfig['request'] = {
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { query: route.query } : {}),
    ...(route.body
      ? { body: 'json' in route.body ? jsonBody(route.body.json) : multipartBody(route.body.multipart) }
      : {}),
    ...(route.idempotent ? { headers: idempotencyHeader } : {}),
  };
  documentApiRoute(registry, { ...about, request, responses, errors: route.errors });
}

import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { documentFoldersRoutes } from '../routes/folders.openapi.ts';
import { documentGroupAnalyticsRoutes } from '../routes/group-analytics.openapi.ts';
import { documentMaterialEventsRoute } from '../routes/material-events.openapi.ts';
import { documentMaterialsRoutes } from '../routes/materials.openapi.ts';
import { documentOperationsRoutes } from '../routes/operations.openapi.ts';
import { documentStorageUrlsRoutes } from '../routes/storage-urls.openapi.ts';
import { documentUsageEventsRoutes } from '../routes/usage-events.openapi.ts';
import { documentUsageSummaryRoutes } from '../routes/usage-summary.openapi.ts';
import { documentWebhooks } from './webhooks.ts';
import { API_KEY_SCHEME } from './common.ts';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * Each router's documentation lives beside its zod schemas in `routes/<resource>.openapi.ts`; a new router
 * adds its function here. `openapi.int.test.ts` names every registered route that is missing.
 */
const ROUTE_DOCS: ((registry: OpenAPIRegistry) => void)[] = [
  documentMaterialsRoutes,
  documentMaterialEventsRoute,
  documentFoldersRoutes,
  documentUsageEventsRoutes,
  documentUsageSummaryRoutes,
  documentGroupAnalyticsRoutes,
  documentStorageUrlsRoutes,
  documentOperationsRoutes,
  documentWebhooks,
];

export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'An API key made with `npm run admin -- key create`; it belongs to one organization (and optionally one group).',
  });
  for (const document of ROUTE_DOCS) document(registry);
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

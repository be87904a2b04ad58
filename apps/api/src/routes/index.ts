import { folderRoutes } from './folders.routes.ts';
import { groupAnalyticsRoutes } from './group-analytics.routes.ts';
import { materialGenerationRoutes } from './material-generation.routes.ts';
import { materialJobRoutes } from './material-jobs.routes.ts';
import { materialTextRoutes } from './material-text.routes.ts';
import { materialRoutes } from './materials.routes.ts';
import { operationsRoutes } from './operations.routes.ts';
import type { AnyRoute } from './route.ts';
import { storageUrlRoutes } from './storage-urls.routes.ts';
import { usageEventRoutes } from './usage-events.routes.ts';
import { usageStatsRoutes } from './usage-stats.routes.ts';
import { usageSummaryRoutes } from './usage-summary.routes.ts';

/**
 * Every endpoint of the api, each declared once in `<resource>.routes.ts`. The Express router
 * (`router.ts`) and the OpenAPI document (`openapi/document.ts`) are both made from this list; a new
 * resource adds its list here.
 */
export const ROUTES: readonly AnyRoute[] = [
  ...materialRoutes,
  ...materialTextRoutes,
  ...materialJobRoutes,
  ...materialGenerationRoutes,
  ...folderRoutes,
  ...usageEventRoutes,
  ...usageSummaryRoutes,
  ...usageStatsRoutes,
  ...groupAnalyticsRoutes,
  ...storageUrlRoutes,
  ...operationsRoutes,
];

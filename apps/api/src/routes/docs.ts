import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownAssetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'docs-assets');

/** The page at `/docs` (declared in operations.routes.ts): Swagger UI over `/openapi.json`. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>quire API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-init.js"></script>
</body>
</html>
`;

// Everything the page needs comes from this server (Swagger UI from its npm package): no CDN, no telemetry.
export const DOCS_PAGE_HEADERS = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
};

/** The page's static assets (not endpoints of the API, so not in the route table). */
export function docsAssetsRouter(): Router {
  const router = Router();
  const assets = { index: false, maxAge: '1h', fallthrough: true } as const;
  router.use('/docs/assets', express.static(ownAssetsDir, assets), express.static(swaggerUiDir, assets));
  return router;
}

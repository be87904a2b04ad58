import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import type { OpenApiDocument } from '../openapi/document.ts';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownAssetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'docs-assets');

const PAGE = `<!doctype html>
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
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** `/openapi.json` (the document the routes' zod schemas generate) and the interactive reference at `/docs`. */
export function docsRouter(document: OpenApiDocument): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    res.set('Content-Security-Policy', CONTENT_SECURITY_POLICY).type('html').send(PAGE);
  });
  const assets = { index: false, maxAge: '1h', fallthrough: true } as const;
  router.use('/docs/assets', express.static(ownAssetsDir, assets), express.static(swaggerUiDir, assets));
  return router;
}

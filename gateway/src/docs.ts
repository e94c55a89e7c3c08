import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Nudge API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/assets/swagger-initializer.js"></script>
  </body>
</html>
`;

// Replaces swagger-ui-dist's own initializer (which points at the petstore); external, so the CSP needs no inline script.
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/docs/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/**
 * GET /api/docs (HTML page, or the JSON document when the client prefers JSON), /api/docs/openapi.json,
 * and swagger-ui-dist's files under /api/docs/assets/, served locally (no CDN).
 */
export function docsRouter(document: Record<string, unknown>): Router {
  const router = express.Router({ strict: false });
  const json = JSON.stringify(document);
  const sendJson = (res: express.Response) => {
    res.type('application/json').setHeader('cache-control', 'no-cache');
    res.send(json);
  };
  router.get('/api/docs/openapi.json', (_req, res) => sendJson(res));
  router.get('/api/docs', (req, res) => {
    res.vary('Accept');
    if (req.accepts(['text/html', 'application/json']) === 'application/json') sendJson(res);
    else res.type('html').setHeader('cache-control', 'no-cache').send(PAGE);
  });
  router.get('/api/docs/assets/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(INITIALIZER);
  });
  router.use(
    '/api/docs/assets',
    express.static(swaggerUiDir, { index: false, fallthrough: true, maxAge: '1d' }),
  );
  return router;
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { LinkPreview } from './link-preview';
import { withPreview } from './link-preview';

/** Paths that belong to the gateway or the services: never answered with the web app. */
const NOT_WEB = /^\/(?:api|auth|internal|healthz|readyz)(?:\/|$)/;

/**
 * The built web app: its files, and index.html for browser navigations to client-side routes
 * (GET/HEAD that ask for text/html, outside /api, /auth, /healthz and /readyz). Undefined when the
 * folder does not exist.
 *
 * The build writes a brotli (`.br`) and a gzip (`.gz`) copy next to every compressible file
 * (web/vite.config.ts); the browser gets the smallest one it accepts, with `Content-Encoding` and
 * `Vary: Accept-Encoding`, and no CPU is spent compressing per request.
 *
 * `/post/{id}` gets the shell with Open Graph and Twitter card tags for that post (link-preview.ts).
 */
export function webRouter(
  webDist: string | undefined,
  /** Link-preview tags for a path (a shared post), put into index.html; null for the plain shell. */
  previewFor?: (path: string) => Promise<LinkPreview | null>,
): Router | undefined {
  if (!webDist) return undefined;
  const root = resolve(webDist);
  if (!existsSync(root) || !statSync(root).isDirectory()) return undefined;
  const indexHtml = join(root, 'index.html');
  const assets = join(root, 'assets');
  const router = express.Router();
  router.use((req, _res, next) => (NOT_WEB.test(req.path) ? next('router') : next()));
  router.use(
    expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      serveStatic: {
        setHeaders(res, path) {
          // Vite puts content-hashed files under /assets; everything else may change between deploys.
          if (path.startsWith(assets)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          else res.setHeader('cache-control', 'no-cache');
        },
      },
    }),
  );
  router.use((req, res, next) => {
    const wantsHtml = /\btext\/html\b/.test(req.headers.accept ?? '');
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !wantsHtml || !existsSync(indexHtml)) {
      next();
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    if (!previewFor || !req.path.startsWith('/post/')) {
      res.sendFile(indexHtml);
      return;
    }
    previewFor(req.path)
      .catch(() => null)
      .then((preview) => {
        const html = readFileSync(indexHtml, 'utf8');
        res.type('html').send(preview ? withPreview(html, preview) : html);
      })
      .catch(next);
  });
  return router;
}

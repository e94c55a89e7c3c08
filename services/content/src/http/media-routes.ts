import { MediaParams, MediaQuery } from '@nudge/contracts';
import { notFound } from '@nudge/platform';
import { Router } from 'express';
import type { MediaDelivery } from '../app/media-delivery';
import { paramsOf, queryOf } from './parse';

/** Media ids never change content, so every answer may be cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function mediaRoutes(media: MediaDelivery): Router {
  const router = Router();

  router.get('/api/media/:id', async (req, res) => {
    const { id } = paramsOf(MediaParams, req);
    const { w } = queryOf(MediaQuery, req);
    const found = await media.serve(id, w ? Number(w) : undefined);
    if (!found) throw notFound('Image not found');
    res.setHeader('cache-control', IMMUTABLE);
    res.setHeader('etag', found.etag);
    res.setHeader('x-content-type-options', 'nosniff');
    if (req.header('if-none-match') === found.etag) {
      res.status(304).end();
      return;
    }
    res.type(found.contentType).send(found.bytes);
  });

  return router;
}

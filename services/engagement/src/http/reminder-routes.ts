import { TrackingParams, TrackingQuery } from '@nudge/contracts';
import { badRequest } from '@nudge/platform';
import { Router } from 'express';
import type { Reminders } from '../app/reminders';

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const INVALID = 'This link is not valid';

/** The public tracking endpoints of reminder e-mails (signed tokens; DESIGN.md: engagement owns opens and clicks). */
export function reminderRoutes(deps: { reminders: Reminders; publicUrl: string }): Router {
  const router = Router();
  const origin = new URL(deps.publicUrl).origin;
  const claimsOf = (params: unknown) => {
    const parsed = TrackingParams.safeParse(params);
    const claims = parsed.success ? deps.reminders.claimsOf(parsed.data.token) : null;
    if (!claims) throw badRequest(INVALID);
    return claims;
  };

  router.get('/api/reminder/open/:token', async (req, res) => {
    const claims = claimsOf(req.params);
    await deps.reminders.opened(claims);
    res.setHeader('cache-control', 'no-store, private');
    res.type('image/gif').send(PIXEL);
  });

  router.get('/api/reminder/go/:token', async (req, res) => {
    const claims = claimsOf(req.params);
    const query = TrackingQuery.safeParse(req.query);
    if (!query.success) throw badRequest(INVALID);
    // The signed destination, and the reader's link token after it when the link carries one (URL-encoded: it
    // cannot leave the path or query the destination ends in).
    const to = claims.to === undefined ? '' : claims.to + encodeURIComponent(query.data.u ?? '');
    // Only our own pages: the token is signed by us, and the destination is checked again all the same.
    if (!claims.link || !claims.to || new URL(to, origin).origin !== origin) throw badRequest(INVALID);
    await deps.reminders.clicked(claims, claims.link);
    res.setHeader('cache-control', 'no-store, private');
    res.redirect(302, new URL(to, origin).toString());
  });

  return router;
}

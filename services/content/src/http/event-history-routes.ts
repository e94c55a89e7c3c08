import { type DocumentStore, eventHistoryHandler, requireInternal } from '@nudge/platform';
import { Router } from 'express';

/** This service's event history, paged in commit order, for reporting's backfill (never routed by the gateway). */
export function eventHistoryRoutes(deps: { store: DocumentStore; internalToken: string }): Router {
  const router = Router();
  router.get('/internal/events', requireInternal(deps.internalToken), eventHistoryHandler(deps.store));
  return router;
}

import { EmailStatsRequest } from '@nudge/contracts';
import {
  answerJson,
  type DocumentStore,
  eventHistoryHandler,
  parseBody,
  requireInternal,
} from '@nudge/platform';
import { Router } from 'express';
import type { EmailStats } from '../app/email-stats';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: {
  emailStats: EmailStats;
  store: DocumentStore;
  internalToken: string;
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** auth and content merge these into their admin lists (one owner of each count; fresh within the 1 s batch). */
  router.post('/internal/email-stats', async (req, res) => {
    answerJson(res, await deps.emailStats.read(parseBody(EmailStatsRequest, req)));
  });

  /** Reporting's own history (reports), like every service's. */
  router.get('/internal/events', eventHistoryHandler(deps.store));

  return router;
}

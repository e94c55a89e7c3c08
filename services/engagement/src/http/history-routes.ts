import { HistoryRequest } from '@nudge/contracts';
import { claimsOf, parseBody, requireUser } from '@nudge/platform';
import { Router } from 'express';
import type { History } from '../app/history';

export function historyRoutes(deps: { history: History }): Router {
  const router = Router();
  router.post('/api/history/getuserhistory', requireUser, async (req, res) => {
    parseBody(HistoryRequest, req);
    res.json({ status: true, ...(await deps.history.forUser(claimsOf(req).userId)) });
  });
  return router;
}

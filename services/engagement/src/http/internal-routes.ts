import { CheckinIssueRequest } from '@nudge/contracts';
import { parseBody, requireInternal } from '@nudge/platform';
import { Router } from 'express';
import type { Checkins } from '../app/checkins';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: { checkins: Checkins; internalToken: string }): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** The reminder workflow issues a check-in question to a user and mails the returned links. */
  router.post('/internal/checkin/issue', async (req, res) => {
    const { userId, questionId } = parseBody(CheckinIssueRequest, req);
    res.json({ status: true, ...(await deps.checkins.issue(userId, questionId)) });
  });

  return router;
}

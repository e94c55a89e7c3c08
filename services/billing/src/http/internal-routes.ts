import { RunDueRequest } from '@nudge/contracts';
import { parseBody, requireInternal } from '@nudge/platform';
import { Router } from 'express';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: {
  internalToken: string;
  runChecks(now: Date): Promise<{ expired: string[]; notices: number }>;
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** The scheduler's renewal tick: due simulated charges, renewal notices 7 days ahead, expiry after the grace. */
  router.post('/internal/subscriptions/run-due', async (req, res) => {
    const { at } = parseBody(RunDueRequest, req);
    res.json({ status: true, ...(await deps.runChecks(new Date(at))) });
  });

  return router;
}

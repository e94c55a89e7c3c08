import { RefundReconcileRequest, type RefundReconcileResult, RunDueRequest } from '@nudge/contracts';
import { parseBody, requireInternal } from '@nudge/platform';
import { Router } from 'express';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: {
  internalToken: string;
  runChecks(now: Date): Promise<{ expired: string[]; notices: number }>;
  reconcileRefunds(): Promise<{
    refunded: { paymentId: string }[];
    failed: { paymentId: string }[];
    pending: string[];
    retried: string[];
  }>;
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** The scheduler's renewal tick: due simulated charges, renewal notices 7 days ahead, expiry after the grace. */
  router.post('/internal/subscriptions/run-due', async (req, res) => {
    const { at } = parseBody(RunDueRequest, req);
    res.json({ status: true, ...(await deps.runChecks(new Date(at))) });
  });

  /** The periodic refund reconciliation (once per cluster: a Temporal Schedule, or the embedded scheduler). */
  router.post('/internal/refunds/reconcile', async (req, res) => {
    parseBody(RefundReconcileRequest, req);
    const report = await deps.reconcileRefunds();
    const answer: RefundReconcileResult = {
      status: true,
      ...report,
      refunded: report.refunded.map((r) => r.paymentId),
      failed: report.failed.map((r) => r.paymentId),
    };
    res.json(answer);
  });

  return router;
}

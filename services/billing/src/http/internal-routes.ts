import { RefundReconcileRequest, type RefundReconcileResult, RenewalStepRequest } from '@nudge/contracts';
import { answerJson, parseBody, requireInternal } from '@nudge/platform';
import { Router } from 'express';
import type { RenewalWorkflows } from '../app/renewal-workflows';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: {
  internalToken: string;
  reconcileRefunds(): Promise<{
    refunded: { paymentId: string }[];
    failed: { paymentId: string }[];
    pending: string[];
    retried: string[];
  }>;
  renewalStep: RenewalWorkflows['step'];
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** A renewal workflow's step (the notice 7 days ahead, or the expiry); answers the plan after it. */
  router.post('/internal/subscriptions/renewal-step', async (req, res) => {
    const step = parseBody(RenewalStepRequest, req);
    answerJson(res, { status: true, ...(await deps.renewalStep(step)) });
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
    answerJson(res, answer);
  });

  return router;
}

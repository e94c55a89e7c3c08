import {
  DeliveryFactsRequest,
  SuppressionCheckRequest,
  SuppressionLiftRequest,
  SuppressionListQuery,
} from '@nudge/contracts';
import { answerJson, claimsOf, parseBody, parseQuery, requireInternal, requireRole } from '@nudge/platform';
import { Router } from 'express';
import type { Suppressions } from '../app/suppressions';

/** The suppression list: the senders' check and facts (internal), the admin's list and lift. */
export function suppressionRoutes(deps: { suppressions: Suppressions; internalToken: string }): Router {
  const router = Router();
  const internal = requireInternal(deps.internalToken);
  const admin = requireRole('admin');

  router.post('/internal/suppressions/check', internal, async (req, res) => {
    const { addresses } = parseBody(SuppressionCheckRequest, req);
    answerJson(res, { status: true, suppressed: await deps.suppressions.check(addresses) });
  });

  router.post('/internal/suppressions/facts', internal, async (req, res) => {
    const { facts } = parseBody(DeliveryFactsRequest, req);
    answerJson(res, { status: true, ...(await deps.suppressions.recordFacts(facts)) });
  });

  router.get('/api/admin/suppressions', admin, async (req, res) => {
    answerJson(res, {
      status: true,
      ...(await deps.suppressions.list(parseQuery(SuppressionListQuery, req))),
    });
  });

  router.post('/api/admin/suppressions/lift', admin, async (req, res) => {
    const { channel, address } = parseBody(SuppressionLiftRequest, req);
    const suppression = await deps.suppressions.lift(channel, address, claimsOf(req).email);
    answerJson(res, { status: true, suppression });
  });

  return router;
}

import { SimulatedCheckoutOutcome, SimulatedCheckoutParams } from '@nudge/contracts';
import { type Logger, parseBody, parseParams } from '@nudge/platform';
import express, { type Request, type Response, Router } from 'express';
import { isSimulatedCheckoutToken, simulatedCheckoutUrl } from '../app/context';
import { deliveryHeaders, signDelivery } from '../infra/razorpay-webhooks';
import type { SimulatedRazorpay } from '../infra/simulated-razorpay';
import { simulatedCheckoutPage, simulatedMessagePage } from './simulated-page';
import { WEBHOOK_PATH } from './webhook-routes';

/**
 * Embedded topology only (no Razorpay keys): the page that stands in for Razorpay's checkout, and its form's
 * target, which makes the simulated Razorpay send its signed webhooks over HTTP to this service's own
 * verification endpoint, on the port the request came in on, before sending the browser to the result page.
 */
export function simulatedRoutes(deps: {
  simulated: SimulatedRazorpay;
  webhookSecret: string;
  clock: () => Date;
  log: Logger;
}): Router {
  const router = Router();
  const path = '/api/payment/simulated/:subscriptionId';

  /** Only the reader who opened the checkout has its link (t = the checkout's HMAC). */
  const refuseWithoutToken = (req: Request, res: Response, subscriptionId: string) => {
    if (isSimulatedCheckoutToken(subscriptionId, deps.webhookSecret, req.query.t)) return false;
    res
      .status(403)
      .type('html')
      .send(simulatedMessagePage('Not your checkout', 'Open the checkout from your own Subscribe button.'));
    return true;
  };

  router.get(path, async (req, res) => {
    const { subscriptionId } = parseParams(SimulatedCheckoutParams, req);
    res.setHeader('cache-control', 'no-store');
    if (refuseWithoutToken(req, res, subscriptionId)) return;
    const sub = await deps.simulated.find(subscriptionId);
    if (!sub) {
      res
        .status(404)
        .type('html')
        .send(simulatedMessagePage('Checkout not found', 'There is no such checkout.'));
      return;
    }
    if (sub.status !== 'created') {
      res
        .status(409)
        .type('html')
        .send(simulatedMessagePage('Checkout finished', 'This checkout has already been completed.'));
      return;
    }
    res
      .type('html')
      .send(simulatedCheckoutPage(sub, simulatedCheckoutUrl(sub.id, deps.webhookSecret), deps.clock()));
  });

  router.post(path, express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const { subscriptionId } = parseParams(SimulatedCheckoutParams, req);
    if (refuseWithoutToken(req, res, subscriptionId)) return;
    const { outcome } = parseBody(SimulatedCheckoutOutcome, req);
    const before = await deps.simulated.find(subscriptionId);
    const webhooks = await deps.simulated.complete(subscriptionId, outcome);
    if (!before || !webhooks) {
      res
        .status(before ? 409 : 404)
        .type('html')
        .send(
          before
            ? simulatedMessagePage('Checkout finished', 'This checkout has already been completed.')
            : simulatedMessagePage('Checkout not found', 'There is no such checkout.'),
        );
      return;
    }
    const target = `http://127.0.0.1:${req.socket.localPort}${WEBHOOK_PATH}`;
    for (const webhook of webhooks) {
      const delivery = signDelivery(webhook, deps.webhookSecret);
      const answer = await fetch(target, {
        method: 'POST',
        headers: deliveryHeaders(delivery),
        body: delivery.raw,
      });
      if (!answer.ok) {
        deps.log.error(
          { subscriptionId, event: webhook.event, status: answer.status, body: await answer.text() },
          'simulated webhook refused by the verification endpoint',
        );
        throw new Error(`the verification endpoint refused the simulated ${webhook.event} webhook`);
      }
    }
    const laterStart = Boolean(before.start_at && before.start_at * 1000 > deps.clock().getTime());
    res.redirect(303, outcome === 'fail' ? '/payment-failed' : laterStart ? '/upgrade' : '/payment-success');
  });

  return router;
}

import express, { type RequestHandler, Router } from 'express';
import type { WebhookReceiver } from '../app/webhooks';

export const WEBHOOK_PATH = '/api/payment/verification';

/**
 * Reads the webhook's body as raw bytes, whatever its content type, before any JSON parser: the signature is over
 * exactly those bytes. Mounted in front of the service's app (see service.ts).
 */
export const rawWebhookBody = (limit: string): RequestHandler => express.raw({ type: () => true, limit });

/** POST /api/payment/verification: Razorpay's webhook (reader.md §7, below the table). */
export function webhookRoutes(receiver: WebhookReceiver): Router {
  const router = Router();
  router.post(WEBHOOK_PATH, async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await receiver.receive(
      raw,
      req.header('x-razorpay-signature'),
      req.header('x-razorpay-event-id'),
    );
    res.json({
      status: true,
      ...(outcome === 'duplicate' ? { duplicate: true } : {}),
      ...(outcome === 'ignored' ? { ignored: true } : {}),
    });
  });
  return router;
}

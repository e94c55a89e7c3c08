import { notFound } from '@nudge/platform';
import express, { type Request, type RequestHandler, Router } from 'express';
import type { Suppressions } from '../app/suppressions';
import {
  createPostmarkReceiver,
  createSendGridReceiver,
  createSnsVerifier,
  sesFacts,
  type WebhookFact,
} from '../infra/delivery-webhooks';

export const DELIVERY_WEBHOOK_PATHS = {
  ses: '/api/webhooks/ses',
  sendgrid: '/api/webhooks/sendgrid',
  postmark: '/api/webhooks/postmark',
} as const;

/** Which providers' webhooks this service listens to (each off until configured). */
export interface DeliveryWebhookSettings {
  /** SNS topics whose SES notifications are accepted (SES_SNS_TOPIC_ARNS). */
  sesTopics?: readonly string[];
  /** SendGrid's Event Webhook verification key, base64 DER (SENDGRID_WEBHOOK_PUBLIC_KEY). */
  sendGridPublicKey?: string;
  /** The basic-auth credential in Postmark's webhook URL (POSTMARK_WEBHOOK_USER, POSTMARK_WEBHOOK_PASSWORD). */
  postmark?: { user: string; password: string };
  /** Fetches an SNS URL's body (signing certificates, subscription confirmations). */
  get?: (url: string) => Promise<string>;
}

/** GET over HTTPS, no redirects (a redirect could leave SNS's hosts), a few seconds at most. */
const getText = async (url: string) => {
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.text();
};

/**
 * Reads the webhooks' bodies as raw bytes, whatever their content type (SNS sends text/plain), before any JSON
 * parser: the signatures are over exactly those bytes. Mounted in front of the service's app (see service.ts).
 */
export const rawDeliveryWebhookBodies = (limit: string): RequestHandler =>
  express.raw({ type: () => true, limit });

const rawOf = (req: Request) => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

/** POST /api/webhooks/{ses,sendgrid,postmark}: each verified, each event recorded once as a delivery fact. */
export function deliveryWebhookRoutes(deps: {
  suppressions: Suppressions;
  settings: DeliveryWebhookSettings;
}): Router {
  const router = Router();
  const { settings } = deps;
  const off = (provider: string) => notFound(`The ${provider} webhook is not configured`);
  const record = async (facts: WebhookFact[]) =>
    facts.length === 0 ? { recorded: 0, duplicates: 0 } : deps.suppressions.recordFacts(facts);

  const sns = settings.sesTopics?.length
    ? createSnsVerifier({ topics: settings.sesTopics, get: settings.get ?? getText })
    : undefined;
  router.post(DELIVERY_WEBHOOK_PATHS.ses, async (req, res) => {
    if (!sns) throw off('SES');
    const message = await sns.verify(rawOf(req));
    if (message.Type === 'SubscriptionConfirmation') {
      await sns.confirm(message);
      res.json({ status: true, confirmed: true });
      return;
    }
    const facts = message.Type === 'Notification' ? sesFacts(message) : [];
    res.json({ status: true, ...(await record(facts)) });
  });

  const sendGrid = settings.sendGridPublicKey
    ? createSendGridReceiver(settings.sendGridPublicKey)
    : undefined;
  router.post(DELIVERY_WEBHOOK_PATHS.sendgrid, async (req, res) => {
    if (!sendGrid) throw off('SendGrid');
    const facts = sendGrid(
      rawOf(req),
      req.header('x-twilio-email-event-webhook-signature'),
      req.header('x-twilio-email-event-webhook-timestamp'),
    );
    res.json({ status: true, ...(await record(facts)) });
  });

  const postmark = settings.postmark ? createPostmarkReceiver(settings.postmark) : undefined;
  router.post(DELIVERY_WEBHOOK_PATHS.postmark, async (req, res) => {
    if (!postmark) throw off('Postmark');
    res.json({ status: true, ...(await record(postmark(rawOf(req), req.header('authorization')))) });
  });

  return router;
}

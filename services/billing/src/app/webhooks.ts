import { createHash } from 'node:crypto';
import { BillingEvents, eventData, RazorpayWebhook } from '@nudge/contracts';
import { badRequest, type DocumentStore, DuplicateKeyError, type Logger } from '@nudge/platform';
import { addMonths, PREMIUM_PLAN } from '../domain/plan';
import { decideProviderUpdate } from '../domain/subscription';
import { HANDLED_EVENTS, parseWebhook } from '../domain/webhook';
import { signatureMatches } from '../infra/signatures';
import type { Expiry } from './expiry';
import type { PremiumClaims } from './premium-claims';
import type { SubscriptionRepository } from './subscription-repository';

type ProcessedWebhook = {
  _id: string;
  event: string;
  subscriptionId: string | null;
  outcome: 'applied' | 'ignored';
  receivedAt: string;
};

export type WebhookOutcome = 'applied' | 'ignored' | 'duplicate';

export interface WebhookReceiver {
  /**
   * Verifies and applies one delivery. Throws a 400 AppError, changing nothing, when the signature is missing or
   * wrong or the body is not a Razorpay event.
   */
  receive(raw: Buffer, signature: string | undefined, eventId: string | undefined): Promise<WebhookOutcome>;
  ensureIndexes(): Promise<void>;
}

const termAfter = (from: Date) => addMonths(from, PREMIUM_PLAN.months);

/**
 * POST /api/payment/verification. Signed with the webhook secret (never the API key secret) over the raw body;
 * deduplicated by Razorpay's event id (x-razorpay-event-id); out-of-order deliveries are sorted out by the domain.
 */
export function createWebhookReceiver(deps: {
  store: DocumentStore;
  repo: SubscriptionRepository;
  expiry: Expiry;
  webhookSecret: string;
  clock: () => Date;
  log: Logger;
  /** After each applied delivery (a repeated one too): hands the subscription's renewal workflow its plan. */
  onApplied?: (subscriptionId: string) => Promise<void>;
  /** The reader's one live subscription: a first charge claims it; a charge of a second one is refused. */
  claims: Pick<PremiumClaims, 'claim' | 'refuse'>;
}): WebhookReceiver {
  const processed = deps.store.collection<ProcessedWebhook>('processed_webhooks');

  const remember = async (doc: ProcessedWebhook) => {
    try {
      await processed.insertOne(doc);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  };

  return {
    ensureIndexes: () => processed.createIndex({ receivedAt: 1 }),

    async receive(raw, signature, givenId) {
      if (!signature) throw badRequest('Missing webhook signature');
      if (!signatureMatches(raw, signature, deps.webhookSecret))
        throw badRequest('Invalid webhook signature');
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw badRequest('The webhook body is not valid JSON');
      }
      const parsed = RazorpayWebhook.safeParse(json);
      if (!parsed.success) throw badRequest('The webhook body is not a Razorpay event');
      const body = parsed.data;
      // Razorpay always sends the id; without one, the same body counts as the same event.
      const eventId = givenId?.trim() || `sha256:${createHash('sha256').update(raw).digest('hex')}`;
      if (await processed.findOne({ _id: eventId })) return 'duplicate';

      const { subscriptionId, notesUserId, update } = parseWebhook(body);
      const receivedAt = deps.clock().toISOString();
      const ignore = async (why: string) => {
        deps.log.info({ eventId, event: body.event, subscriptionId }, `webhook ignored: ${why}`);
        await remember({ _id: eventId, event: body.event, subscriptionId, outcome: 'ignored', receivedAt });
        return 'ignored' as const;
      };
      if (!HANDLED_EVENTS.has(body.event)) return ignore('event not handled');
      if (!subscriptionId) return ignore('no subscription in the payload');

      // A charge that would make this subscription grant premium while another of the reader's does: recorded (the
      // money moved), never activated, then refunded and the subscription cancelled.
      let refused: { paymentId: string; amount: number } | null = null;
      const result = await deps.repo.update(
        subscriptionId,
        async (state) => {
          if (notesUserId && notesUserId !== state.userId) {
            deps.log.warn(
              { eventId, subscriptionId, notesUserId, userId: state.userId },
              'webhook notes name another user; our own record stands',
            );
          }
          refused = null;
          const decided = decideProviderUpdate(state, update, deps.clock(), termAfter);
          const activation = decided.find((e) => e.type === BillingEvents.SubscriptionActivated.type);
          if (!activation || (await deps.claims.claim(state))) return decided;
          const captured = decided.find((e) => e.type === BillingEvents.PaymentCaptured.type);
          if (captured) {
            const { paymentId, amount } = eventData(BillingEvents.PaymentCaptured, captured);
            refused = { paymentId, amount };
          }
          return decided.filter((e) => e !== activation);
        },
        'razorpay',
      );
      if (!result) return ignore('unknown subscription');
      if (refused) await deps.claims.refuse(result.state, refused);
      // A snapshot saying the term is over (halted, cancelled or completed at its end) ends premium now.
      await deps.expiry.expireIfDue(subscriptionId, deps.clock());
      await deps.onApplied?.(subscriptionId);
      await remember({ _id: eventId, event: body.event, subscriptionId, outcome: 'applied', receivedAt });
      return 'applied';
    },
  };
}

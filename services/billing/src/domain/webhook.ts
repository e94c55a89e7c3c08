import { BillingStatus, type RazorpayWebhook } from '@nudge/contracts';
import type { ProviderUpdate, Status } from './subscription';

/** The Razorpay events billing acts on (https://razorpay.com/docs/webhooks/subscriptions); others are acknowledged and ignored. */
export const HANDLED_EVENTS = new Set([
  'subscription.authenticated',
  'subscription.activated',
  'subscription.charged',
  'subscription.pending',
  'subscription.halted',
  'subscription.cancelled',
  'subscription.completed',
  'subscription.paused',
  'subscription.resumed',
  'subscription.updated',
  'payment.failed',
]);

const iso = (seconds: number | null | undefined) =>
  typeof seconds === 'number' && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;

const toStatus = (status: string): Status | null => {
  const parsed = BillingStatus.safeParse(status);
  return parsed.success ? parsed.data : null;
};

export interface ParsedWebhook {
  /** The subscription the event is about, when the payload names one. */
  subscriptionId: string | null;
  /** notes.userId given at creation (checked against our own record, never used alone). */
  notesUserId: string | null;
  update: ProviderUpdate;
}

/** Turns a verified, schema-checked webhook into the provider update the domain decides on. */
export function parseWebhook(body: RazorpayWebhook): ParsedWebhook {
  const sub = body.payload.subscription?.entity;
  const pay = body.payload.payment?.entity;
  const status = sub ? toStatus(sub.status) : null;
  const notes = sub?.notes && !Array.isArray(sub.notes) ? sub.notes : {};
  const notesUserId = typeof notes.userId === 'string' ? notes.userId : null;
  return {
    subscriptionId: sub?.id ?? pay?.subscription_id ?? null,
    notesUserId,
    update: {
      event: body.event,
      at: new Date(body.created_at * 1000).toISOString(),
      subscription:
        sub && status
          ? {
              status,
              currentStart: iso(sub.current_start),
              currentEnd: iso(sub.current_end),
              paidCount: sub.paid_count,
            }
          : null,
      payment: pay
        ? {
            id: pay.id,
            amount: pay.amount,
            currency: pay.currency,
            status: pay.status,
            createdAt: new Date(pay.created_at * 1000).toISOString(),
            errorCode: pay.error_code ?? null,
            errorDescription: pay.error_description ?? null,
          }
        : null,
    },
  };
}

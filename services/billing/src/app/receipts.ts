import { type BillingEventData, BillingEvents } from '@nudge/contracts';
import { prefixedSubject, renderEmail, termsUrlOf } from '@nudge/email';
import type { EventEnvelope, Logger, Projection, UserDirectory } from '@nudge/platform';
import { createElement } from 'react';
import { longDate, REFUND_WINDOW_MS, rupees } from '../domain/plan';
import { RenewalNoticeEmail, type RenewalNoticeModel } from '../email/RenewalNoticeEmail';
import type { NoticeMail, NoticeSettings } from './renewal-notices';

/**
 * A receipt is mailed for a payment or refund that happened this recently (by the service's clock); older events
 * (a rebuild, a new replica catching up on history) are not mailed again.
 */
export const RECEIPT_MAX_AGE_MS = 24 * 3600_000;

type Captured = BillingEventData<'PaymentCaptured'>;
type Refunded = BillingEventData<'PaymentRefunded'>;
export type ReceiptEvent = { kind: 'payment'; data: Captured } | { kind: 'refund'; data: Refunded };

/** A receipt's wording, dates in the reader's time zone: what was paid or refunded, when, for what, its reference. */
export function receipt(
  event: ReceiptEvent,
  timeZone: string | undefined,
  settings: NoticeSettings,
  publicUrl: string,
  firstname = '',
): { subject: string; model: RenewalNoticeModel } {
  const site = settings.sitetitle;
  const common = {
    settings,
    firstname: firstname.trim(),
    manageUrl: `${publicUrl.replace(/\/+$/, '')}/upgrade`,
    termsUrl: termsUrlOf(publicUrl),
  };
  if (event.kind === 'payment') {
    const d = event.data;
    const amount = rupees(d.amount);
    return {
      subject: prefixedSubject(settings.subjectprefix, `${site}: your receipt for ${amount}`),
      model: {
        ...common,
        heading: `Thank you: we received ${amount}`,
        paragraphs: [
          `We received ${amount} on ${longDate(d.paidAt, timeZone)} for a year of ${site} premium, from ${longDate(d.periodStart, timeZone)} to ${longDate(d.periodEnd, timeZone)}.`,
          `Your premium renews on ${longDate(d.periodEnd, timeZone)} unless you turn renewal off. Cancelling within ${REFUND_WINDOW_MS / (24 * 3600_000)} days of the start refunds the payment in full.`,
          `Payment reference: ${d.paymentId}`,
        ],
      },
    };
  }
  const d = event.data;
  const amount = rupees(d.amount);
  return {
    subject: prefixedSubject(settings.subjectprefix, `${site}: your refund of ${amount}`),
    model: {
      ...common,
      heading: `We refunded ${amount}`,
      paragraphs: [
        `We refunded ${amount} on ${longDate(d.refundedAt, timeZone)} for your ${site} premium payment, and your premium has ended.`,
        'Your bank usually shows the refund within 5 to 7 working days.',
        `Refund reference: ${d.refundId} (payment ${d.paymentId})`,
      ],
    },
  };
}

/**
 * Receipt e-mails for payments and refunds, read from billing's own events (every path that charges or refunds
 * appends one: the webhook, the checkout confirmation, a cancel, a reconciled refund). Each mail carries the
 * payment's or refund's id as idempotency key, so a projection retried after a crash does not mail twice. A mail that
 * cannot be sent is logged, not retried: a receipt never holds back the read models.
 */
export function createReceiptsProjection(deps: {
  directory: UserDirectory;
  notices: NoticeMail | undefined;
  clock: () => Date;
  log: Logger;
}): Projection {
  const eventOf = (event: EventEnvelope): ReceiptEvent | null => {
    if (event.type === BillingEvents.PaymentCaptured.type)
      return { kind: 'payment', data: event.data as Captured };
    if (event.type === BillingEvents.PaymentRefunded.type)
      return { kind: 'refund', data: event.data as Refunded };
    return null;
  };
  return {
    name: 'billing.receipts',
    async apply(event: EventEnvelope) {
      const found = eventOf(event);
      const notices = deps.notices;
      if (!found || !notices) return;
      if (deps.clock().getTime() - Date.parse(event.occurredAt) > RECEIPT_MAX_AGE_MS) return;
      try {
        const user = await deps.directory.byId(found.data.userId);
        if (!user?.email) return;
        const { subject, model } = receipt(
          found,
          user.timeZone,
          await notices.siteSettings(),
          notices.publicUrl,
          user.firstname,
        );
        const id = found.kind === 'payment' ? found.data.paymentId : found.data.refundId;
        await notices.mail.send({
          to: user.email,
          subject,
          ...(await renderEmail(createElement(RenewalNoticeEmail, { m: model }))),
          idempotencyKey: `receipt-${found.kind}-${id}`.slice(0, 64),
        });
      } catch (err) {
        deps.log.error({ err, eventId: event.id }, `the ${found.kind} receipt e-mail was not sent`);
      }
    },
    async reset() {},
  };
}

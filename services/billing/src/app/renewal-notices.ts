import { DuplicateKeyError, type MailSender, type UserDirectory } from '@nudge/platform';
import { longDate, rupees } from '../domain/plan';
import type { SubscriptionState } from '../domain/subscription';

export const NOTICE_DAYS = 7;
export const NOTICE_MS = NOTICE_DAYS * 24 * 3600_000;

/** The notice e-mail's text: the next charge when the reader will be charged again; the last day without. */
export function renewalNotice(
  s: SubscriptionState,
  renews: boolean,
  timeZone: string | undefined,
  siteName: string,
) {
  const date = longDate(s.endAt ?? '', timeZone);
  if (renews) {
    return {
      subject: `${siteName}: your premium renews on ${date}`,
      text: `Your ${siteName} premium renews on ${date}. We will charge ${rupees(s.amount)} for the next year then.\n\nTo stop the renewal, cancel it on your Subscription page before that day.`,
    };
  }
  return {
    subject: `${siteName}: your premium ends on ${date}`,
    text: `You will not be charged again on ${date}. Your ${siteName} premium ends then.\n\nTo keep it, restart the renewal on your Subscription page.`,
  };
}

type NoticeDoc = { _id: string; at: string; skipped?: boolean };

/**
 * The notice e-mail 7 days before a subscription's endAt, once per (subscription, endAt): a renewal that moves
 * endAt gets its own notice next year. The mail goes out with the notice key as idempotency key and is recorded
 * after (a crash in between sends it again with the same key: stored once by the capture outbox).
 */
export function createRenewalNotices(deps: {
  store: import('@nudge/platform').DocumentStore;
  directory: UserDirectory;
  mail: MailSender | undefined;
  siteName: string;
}) {
  const sent = deps.store.collection<NoticeDoc>('renewal_notices');
  const keyOf = (s: Pick<SubscriptionState, '_id' | 'endAt'>) => `${s._id}|${s.endAt}`;
  const remember = async (doc: NoticeDoc) => {
    try {
      await sent.insertOne(doc);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  };

  return {
    /** True when the notice for this endAt is done (sent, or skipped because endAt had passed). */
    async done(s: Pick<SubscriptionState, '_id' | 'endAt'>) {
      return (await sent.findOne({ _id: keyOf(s) })) !== null;
    },
    /**
     * Sends the notice for the subscription's current endAt unless it is done; at or after endAt it is too late
     * and only marked done. True when a mail went out.
     */
    async send(s: SubscriptionState, renews: boolean, now: Date): Promise<boolean> {
      const key = keyOf(s);
      if (await sent.findOne({ _id: key })) return false;
      if (!s.endAt || now.getTime() >= Date.parse(s.endAt) || !deps.mail) {
        await remember({ _id: key, at: now.toISOString(), skipped: true });
        return false;
      }
      const user = await deps.directory.byId(s.userId);
      const to = user?.email ?? s.email;
      if (!to) {
        await remember({ _id: key, at: now.toISOString(), skipped: true });
        return false;
      }
      await deps.mail.send({
        to,
        ...renewalNotice(s, renews, user?.timeZone, deps.siteName),
        idempotencyKey: `renewal-${Buffer.from(key).toString('hex').slice(0, 48)}`,
      });
      await remember({ _id: key, at: now.toISOString() });
      return true;
    },
  };
}

export type RenewalNotices = ReturnType<typeof createRenewalNotices>;

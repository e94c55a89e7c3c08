import { DuplicateKeyError, type MailSender, type UserDirectory } from '@nudge/platform';
import { longDate, rupees } from '../domain/plan';
import { expectsRenewal, type SubscriptionState } from '../domain/subscription';
import type { SubscriptionRepository } from './subscription-repository';

export const NOTICE_DAYS = 7;
const DAY_MS = 24 * 3600_000;

/** The notice e-mail's text: the next charge with renewal on; the last day without. */
export function renewalNotice(s: SubscriptionState, timeZone: string | undefined, siteName: string) {
  const date = longDate(s.endAt ?? '', timeZone);
  if (expectsRenewal(s)) {
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

/**
 * A notice e-mail 7 days before each entitled subscription's endAt, once per (subscription, endAt): a renewal
 * that moves endAt gets its own notice next year. The mail goes out with the notice key as idempotency key and is
 * recorded after (a crash in between re-sends it with the same key: stored once by the capture outbox).
 */
export function createRenewalNotices(deps: {
  repo: SubscriptionRepository;
  store: import('@nudge/platform').DocumentStore;
  directory: UserDirectory;
  mail: MailSender | undefined;
  siteName: string;
}) {
  const sent = deps.store.collection<{ _id: string; at: string }>('renewal_notices');
  return {
    async sendDue(now: Date): Promise<number> {
      if (!deps.mail) return 0;
      const until = new Date(now.getTime() + NOTICE_DAYS * DAY_MS).toISOString();
      const due = await deps.repo.subscriptions.find(
        { entitled: true, endAt: { $gt: now.toISOString(), $lte: until } },
        { sort: { endAt: 1 } },
      );
      let count = 0;
      for (const s of due) {
        const key = `${s._id}|${s.endAt}`;
        if (await sent.findOne({ _id: key })) continue;
        const user = await deps.directory.byId(s.userId);
        const to = user?.email ?? s.email;
        if (!to) continue;
        const notice = renewalNotice(s, user?.timeZone, deps.siteName);
        await deps.mail.send({
          to,
          ...notice,
          idempotencyKey: `renewal-${Buffer.from(key).toString('hex').slice(0, 48)}`,
        });
        try {
          await sent.insertOne({ _id: key, at: now.toISOString() });
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
        }
        count += 1;
      }
      return count;
    },
  };
}

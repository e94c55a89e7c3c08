import type { SiteSettings } from '@nudge/contracts';
import { type EmailBrand, prefixedSubject, renderEmail, termsUrlOf } from '@nudge/email';
import { DuplicateKeyError, type MailSender, type UserDirectory } from '@nudge/platform';
import { createElement } from 'react';
import { renewalOffMessage, renewalOnMessage } from '../domain/account';
import { longDate, rupees } from '../domain/plan';
import type { SubscriptionState } from '../domain/subscription';
import { RenewalNoticeEmail, type RenewalNoticeModel } from '../email/RenewalNoticeEmail';

export const NOTICE_DAYS = 7;
export const NOTICE_MS = NOTICE_DAYS * 24 * 3600_000;

/** The site settings a notice is dressed in: the e-mail logo, colours and titles, and the subject prefix. */
export type NoticeSettings = EmailBrand & Pick<SiteSettings, 'subjectprefix'>;

/** Where notices come from and what they look like; absent from billing's deps = no notices. */
export interface NoticeMail {
  mail: MailSender;
  /** The current site settings (content's); a failure fails the step, which the workflow retries. */
  siteSettings: () => Promise<NoticeSettings>;
  /** PUBLIC_URL: the Subscription page the notice links to is on it. */
  publicUrl: string;
}

/**
 * The notice e-mail's wording (reader.md §4): renewal on, the date and amount of the next charge;
 * renewal off, 'You will not be charged again on {date} because subscription renewal is disabled.'
 */
export function renewalNotice(
  s: SubscriptionState,
  renews: boolean,
  timeZone: string | undefined,
  settings: NoticeSettings,
  publicUrl: string,
  firstname = '',
): { subject: string; model: RenewalNoticeModel } {
  const endAt = s.endAt ?? '';
  const date = longDate(endAt, timeZone);
  const site = settings.sitetitle;
  const common = {
    settings,
    firstname: firstname.trim(),
    manageUrl: `${publicUrl.replace(/\/+$/, '')}/upgrade`,
    termsUrl: termsUrlOf(publicUrl),
  };
  if (renews) {
    return {
      subject: prefixedSubject(settings.subjectprefix, `${site}: your premium renews on ${date}`),
      model: {
        ...common,
        heading: `Your ${site} premium renews on ${date}`,
        paragraphs: [
          `${renewalOnMessage(endAt, timeZone)}. We will charge ${rupees(s.amount)} for the next year then.`,
          'To stop the renewal, cancel it on your Subscription page before that day.',
        ],
      },
    };
  }
  return {
    subject: prefixedSubject(settings.subjectprefix, `${site}: your premium ends on ${date}`),
    model: {
      ...common,
      heading: `Your ${site} premium ends on ${date}`,
      paragraphs: [
        `${renewalOffMessage(endAt, timeZone)} Your ${site} premium ends then.`,
        'To keep it, restart the renewal on your Subscription page.',
      ],
    },
  };
}

/** The notice as it is mailed: subject, and the HTML and plain-text parts rendered by React Email. */
export async function renderRenewalNotice(...args: Parameters<typeof renewalNotice>) {
  const { subject, model } = renewalNotice(...args);
  return { subject, ...(await renderEmail(createElement(RenewalNoticeEmail, { m: model }))) };
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
  notices: NoticeMail | undefined;
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
      if (!s.endAt || now.getTime() >= Date.parse(s.endAt) || !deps.notices) {
        await remember({ _id: key, at: now.toISOString(), skipped: true });
        return false;
      }
      const user = await deps.directory.byId(s.userId);
      const to = user?.email ?? s.email;
      if (!to) {
        await remember({ _id: key, at: now.toISOString(), skipped: true });
        return false;
      }
      const notice = await renderRenewalNotice(
        s,
        renews,
        user?.timeZone,
        await deps.notices.siteSettings(),
        deps.notices.publicUrl,
        user?.firstname,
      );
      await deps.notices.mail.send({
        to,
        ...notice,
        idempotencyKey: `renewal-${Buffer.from(key).toString('hex').slice(0, 48)}`,
      });
      await remember({ _id: key, at: now.toISOString() });
      return true;
    },
  };
}

export type RenewalNotices = ReturnType<typeof createRenewalNotices>;

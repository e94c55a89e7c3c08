import type {
  CheckinIssueBatchResponse,
  DeliveryFactsRequest,
  DueReader,
  DueReadersResponse,
  MintLinksResponse,
  RecordSendsResponse,
  ReminderEventData,
  ReminderLinkKind,
  RemindersPostsResponse,
  SendsRecordedResponse,
  SuppressionCheckResponse,
} from '@nudge/contracts';
import { prefixedSubject } from '@nudge/email';
import {
  type Logger,
  type MailSender,
  processMetrics,
  sendIdOf,
  trackingSigner,
  type WhatsAppSender,
} from '@nudge/platform';
import type { z } from 'zod';
import { chooseSubject, type SubjectStats } from '../bandit';
import {
  createReminderRenderer,
  paragraphsOf,
  type ReminderEmailModel,
  reminderFirstname,
  whatsappText,
} from '../email';
import type { InternalCall } from './internal-client';

export interface ReminderDeps {
  call: InternalCall;
  mail: MailSender;
  whatsapp: WhatsAppSender;
  /** HMAC key of tracking links (platform trackingSecret(internal credential)). */
  trackingSecret: Buffer;
  /** The public site (PUBLIC_URL): where every link of a reminder points. */
  publicUrl: string;
  log: Logger;
  clock: () => Date;
  random?: () => number;
  /** How long the subject bandit waits for reporting's counts before choosing uniformly. */
  statsTimeoutMs?: number;
}

export interface BatchResult {
  /** Messages delivered and recorded in this call. */
  sent: number;
  /** Send keys already recorded before this call (a resumed slot, a fall-back hour, a retry). */
  alreadySent: number;
  /** Readers with nothing to send (no post today). */
  nothing: number;
  /** Messages the transport refused (not recorded; a retry of the batch tries them again). */
  failed: number;
  /**
   * Messages not sent to a suppressed address (a hard bounce, a complaint, an opt-out...), or refused by the mail
   * server for good (a 5xx answer: a hard bounce, recorded, so the address is suppressed from then on).
   */
  suppressed: number;
}

type Sent = ReminderEventData<'ReminderSent'>;
type DeliveryFacts = z.input<typeof DeliveryFactsRequest>;
type DeliveryFact = DeliveryFacts['facts'][number];

/** A mail server's permanent refusal of the recipient or the message (5xx to RCPT TO or DATA): a hard bounce. */
const hardBounced = (err: unknown) => {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};
/** The server's own words, for the admin's "why". */
const replyOf = (err: unknown) => String((err as { response?: unknown }).response ?? (err as Error).message);

/** The path and query of an absolute URL (a check-in link), as `new URL(url)` gives them, parsed once. */
const pathOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

/**
 * The check-in's answer links, tracked. Their destinations differ only in the answer they end in
 * (`/checkin?qlid=<q>&a=<answer>`): one click token signs the destination without it and each link carries its answer
 * after the token as `?u=<answer>`, as a reader's link token is carried (engagement appends it URL-encoded). One HMAC
 * for the five, not five. A reader who edits `u` answers what another link of the same e-mail answers, or a value the
 * check-in page refuses. Links of another shape are each signed whole.
 */
function checkinAnswers(
  links: { answer: number; url: string }[],
  tracked: (kind: ReminderLinkKind, to: string, readerPart?: string) => string,
): { answer: number; url: string }[] {
  const first = links[0];
  if (!first) return [];
  const prefix = first.url.slice(0, first.url.length - String(first.answer).length);
  if (!links.every((l) => l.url === prefix + String(l.answer)))
    return links.map((l) => ({ answer: l.answer, url: tracked('checkin', pathOf(l.url)) }));
  const token = tracked('checkin', pathOf(prefix), '');
  return links.map((l) => ({ answer: l.answer, url: token + String(l.answer) }));
}

/** How long a post's subject counts from reporting are used before they are asked for again. */
const STATS_FRESH_MS = 60_000;
/** Posts whose counts are kept at most (all forgotten beyond: asked for again). */
const STATS_KEPT = 1_000;
/** Messages of a batch handed to the transport at once. */
const DELIVERY_CONCURRENCY = 32;
type Send = { reader: DueReader; channel: 'email' | 'whatsapp'; sendId: string };
type StatsResponse = {
  templates?: Record<string, { subjects?: Record<string, SubjectStats> }>;
};

/** The reminder activities: one page of due readers; one batch sent by the delivery rule. */
export function createReminderActivities(deps: ReminderDeps) {
  const base = deps.publicUrl.replace(/\/$/, '');
  const random = deps.random ?? Math.random;
  const renderReminder = createReminderRenderer();

  async function dueReaders(input: { at: string; cursor?: string | null; limit: number }) {
    const res = await deps.call<z.infer<typeof DueReadersResponse>>('auth', '/internal/reminders/due', {
      at: input.at,
      limit: input.limit,
      ...(input.cursor ? { cursor: input.cursor } : {}),
    });
    return { readers: res.readers, next: res.next };
  }

  /**
   * Subject counts per post, kept STATS_FRESH_MS by the activities' clock: a slot's batches choose from the same
   * counts (the opens that arrive while a slot runs are few), and reporting's engine answers once, not once per batch.
   */
  const statsKept = new Map<string, { at: number; subjects: Record<string, SubjectStats> | undefined }>();

  /** Subject counts from reporting; null (uniform choice) when reporting is absent or slow (not kept). */
  async function subjectStats(templateIds: string[]) {
    const now = deps.clock().getTime();
    const fresh = (id: string) => {
      const kept = statsKept.get(id);
      return kept !== undefined && now - kept.at < STATS_FRESH_MS;
    };
    if (!templateIds.every(fresh)) {
      try {
        const res = await deps.call<StatsResponse>(
          'reporting',
          '/internal/email-stats',
          { templateIds },
          deps.statsTimeoutMs ?? 1_000,
        );
        if (statsKept.size > STATS_KEPT) statsKept.clear();
        for (const id of templateIds) statsKept.set(id, { at: now, subjects: res.templates?.[id]?.subjects });
      } catch (err) {
        deps.log.info(
          { err: (err as Error).message },
          'subject counts unavailable from reporting: choosing subject lines uniformly',
        );
        return null;
      }
    }
    const out: Record<string, { subjects?: Record<string, SubjectStats> }> = {};
    for (const id of templateIds) {
      const subjects = statsKept.get(id)?.subjects;
      out[id] = subjects ? { subjects } : {};
    }
    return out;
  }

  /**
   * The delivery rule: skip send keys already recorded; render; hand each message to the transport with the send
   * key as idempotency key; then record the delivered ones in one call. A crash between delivery and record
   * delivers the same keys again on the resumed batch (stored once by the capture outbox; SMTP: see README).
   */
  async function sendBatch(input: { slot: string; readers: DueReader[] }): Promise<BatchResult> {
    let wanted: Send[] = [];
    for (const reader of input.readers) {
      if (reader.email_on)
        wanted.push({ reader, channel: 'email', sendId: sendIdOf(reader.userId, reader.localDate, 'email') });
      if (reader.whatsapp)
        wanted.push({
          reader,
          channel: 'whatsapp',
          sendId: sendIdOf(reader.userId, reader.localDate, 'whatsapp'),
        });
    }
    const result: BatchResult = { sent: 0, alreadySent: 0, nothing: 0, failed: 0, suppressed: 0 };
    if (wanted.length === 0) return result;
    const kept = await withoutSuppressed(wanted);
    result.suppressed = wanted.length - kept.length;
    wanted = kept;
    if (wanted.length === 0) return result;
    // The links (signed in auth's worker thread) and the day's posts (remembered picks, the same whether sent or
    // not) are asked for at once with the recorded check: the signing runs beside the rest of the batch's work.
    // A resumed batch asks for a few it will not send.
    const readers = [...new Map(wanted.map((s) => [s.reader.userId, s.reader])).values()];
    const linksCall = deps.call<z.infer<typeof MintLinksResponse>>('auth', '/internal/tokens/links', {
      userIds: readers.map((r) => r.userId),
    });
    const postsCall = deps.call<z.infer<typeof RemindersPostsResponse>>(
      'content',
      '/internal/reminders/posts',
      {
        readers: readers.map((r) => ({ userId: r.userId, role: r.role, localDate: r.localDate })),
        recommendations: 3,
      },
    );
    // Awaited below, or dropped when everything was sent already.
    linksCall.catch(() => undefined);
    postsCall.catch(() => undefined);
    const { recorded } = await deps.call<z.infer<typeof SendsRecordedResponse>>(
      'engagement',
      '/internal/reminders/recorded',
      { sendIds: wanted.map((s) => s.sendId) },
    );
    const done = new Set(recorded);
    const todo = wanted.filter((s) => !done.has(s.sendId));
    result.alreadySent = wanted.length - todo.length;
    if (todo.length === 0) return result;

    const [{ settings, posts, picks }, { links }] = await Promise.all([postsCall, linksCall]);
    /** The reader's post of the day (the batch's few posts, each once), or undefined without one. */
    const postOf = (userId: string) => {
      const key = picks[userId];
      return key === undefined ? undefined : posts[key];
    };
    const mailTo = [
      ...new Set(
        todo.filter((s) => s.channel === 'email' && postOf(s.reader.userId)).map((s) => s.reader.userId),
      ),
    ];
    // The subject counts (reporting's engine, another process) are asked for while engagement issues the check-ins.
    const templateIds = [...new Set(Object.values(posts).map((p) => p.template._id))];
    const statsCall = templateIds.length > 0 ? subjectStats(templateIds) : Promise.resolve(null);
    const checkins =
      settings.emailcheckin && mailTo.length > 0
        ? (
            await deps.call<z.infer<typeof CheckinIssueBatchResponse>>(
              'engagement',
              '/internal/checkin/issue-batch',
              {
                userIds: mailTo,
              },
            )
          ).checkins
        : {};
    const stats = await statsCall;

    const delivered: Sent[] = [];
    const bounces: DeliveryFact[] = [];
    const metrics = processMetrics();
    const sentBy = { email: 0, whatsapp: 0 };
    // A post's paragraphs as each gating shows them, once per batch (one array: the renderer knows it again).
    const paragraphs = new Map<string, string[]>();
    const paragraphsOfPost = (template: (typeof posts)[string]['template']) => {
      const key = `${template._id} ${template.locked === true}`;
      let found = paragraphs.get(key);
      if (!found) {
        found = paragraphsOf(template.locked ? template.preview : template.body);
        paragraphs.set(key, found);
      }
      return found;
    };
    const deliver = async (send: Send) => {
      const { reader, channel, sendId } = send;
      const post = postOf(reader.userId);
      const link = links[reader.userId];
      if (!post || !link) {
        result.nothing += 1;
        return;
      }
      const subject = chooseSubject(
        post.subjects,
        stats ? (stats[post.template._id]?.subjects ?? {}) : null,
        random,
      );
      const facts = {
        sendId,
        userId: reader.userId,
        channel,
        localDate: reader.localDate,
        templateId: post.template._id,
        subjectId: channel === 'email' ? (subject?.id ?? null) : null,
      };
      const sign = trackingSigner(deps.trackingSecret, facts);
      /**
       * A click link. A destination that ends in one of the reader's link tokens (sign-in, unsubscribe: about 330
       * characters each) has it after the tracking token (`?u=`, engagement appends it), not inside it: inside, it
       * was base64-encoded again and hashed by the MAC, in every link of the e-mail. The check-in's answers carry
       * their answer there (checkinAnswers). `readerPart` is URL-encoded already.
       */
      const tracked = (kind: ReminderLinkKind, to: string, readerPart?: string) =>
        `${base}/api/reminder/go/${sign.click(kind, to)}${readerPart === undefined ? '' : `?u=${readerPart}`}`;
      const uid = encodeURIComponent(link.signin);
      /** A post page that signs the reader in (uid last, appended by engagement). */
      const postLink = (kind: ReminderLinkKind, id: string, query = '') =>
        tracked(kind, `/post/${id}?${query}uid=`, uid);
      const subjectLine = prefixedSubject(settings.subjectprefix, subject?.title ?? post.template.heading);
      const continueUrl = postLink('continue_reading', post.template._id);
      try {
        if (channel === 'whatsapp') {
          await deps.whatsapp.send({
            to: reader.whatsapp ?? '',
            text: whatsappText(subjectLine, post.template.heading, continueUrl),
            idempotencyKey: sendId,
          });
        } else {
          const checkin = checkins[reader.userId];
          const model: ReminderEmailModel = {
            settings,
            firstname: reminderFirstname(reader.firstname),
            heading: post.template.heading,
            paragraphs: paragraphsOfPost(post.template),
            locked: post.template.locked === true,
            image: post.template.image ? `${base}${post.template.image}?w=960` : null,
            continueUrl,
            likeUrl: postLink('like', post.template._id, 'a=like&'),
            upgradeUrl: post.template.locked ? tracked('upgrade', '/setting') : null,
            recommendations: settings.emailrecommendation
              ? post.recommendations.map((r) => ({
                  heading: r.heading,
                  url: postLink('recommendation', r._id),
                }))
              : [],
            checkin: checkin
              ? { body: checkin.question.body, answers: checkinAnswers(checkin.links, tracked) }
              : null,
            unsubscribeUrl: tracked('unsubscribe', '/unsubscribe/', encodeURIComponent(link.unsubscribe)),
            openPixelUrl: `${base}/api/reminder/open/${sign.open()}`,
          };
          const rendering = renderReminder(model);
          const { html, text } = rendering instanceof Promise ? await rendering : rendering;
          await deps.mail.send({
            to: reader.email,
            subject: subjectLine,
            html,
            text,
            headers: {
              'List-Unsubscribe': `<${base}/api/user/unsubscribe/${encodeURIComponent(link.unsubscribe)}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
            idempotencyKey: sendId,
          });
        }
      } catch (err) {
        if (channel === 'email' && hardBounced(err)) {
          bounces.push({
            kind: 'hard_bounce',
            channel,
            address: reader.email,
            source: 'smtp',
            detail: replyOf(err),
          });
          result.suppressed += 1;
          return;
        }
        deps.log.warn({ err, sendId, channel }, 'reminder delivery failed; not recorded, a retry sends it');
        metrics.reminderFailures.inc({ service: 'workflows', channel });
        result.failed += 1;
        return;
      }
      sentBy[channel] += 1;
      delivered.push({
        ...facts,
        subject: channel === 'email' ? subjectLine : null,
        slot: reader.slot,
        timeZone: reader.timeZone,
        checkinQuestionId: channel === 'email' ? (checkins[reader.userId]?.question._id ?? null) : null,
        locked: post.template.locked === true,
        sentAt: deps.clock().toISOString(),
      });
    };
    // Bounded concurrency: the transport groups the writes of messages handed over together (the outbox files).
    // DELIVERY_CONCURRENCY lanes, each taking the next send when its last one is handed over.
    let next = 0;
    const lane = async () => {
      while (next < todo.length) await deliver(todo[next++] as Send);
    };
    await Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, todo.length) }, lane));
    if (bounces.length > 0)
      await deps.call('engagement', '/internal/suppressions/facts', {
        facts: bounces,
      } satisfies DeliveryFacts);
    for (const channel of ['email', 'whatsapp'] as const)
      if (sentBy[channel] > 0) metrics.remindersSent.inc({ service: 'workflows', channel }, sentBy[channel]);
    if (delivered.length > 0) {
      // Recording appends one stream per send: give a large batch time (a timeout only re-runs the batch).
      const res = await deps.call<z.infer<typeof RecordSendsResponse>>(
        'engagement',
        '/internal/reminders/sent',
        { sends: delivered },
        120_000,
      );
      result.sent = res.recorded;
      result.alreadySent += res.duplicates;
    }
    return result;
  }

  /** The sends of a batch whose address is not suppressed (engagement's list, asked once per batch). */
  async function withoutSuppressed(sends: Send[]): Promise<Send[]> {
    const addressOf = (s: Send) => (s.channel === 'email' ? s.reader.email : (s.reader.whatsapp ?? ''));
    const { suppressed } = await deps.call<z.infer<typeof SuppressionCheckResponse>>(
      'engagement',
      '/internal/suppressions/check',
      { addresses: sends.map((s) => ({ channel: s.channel, address: addressOf(s) })) },
    );
    if (suppressed.length === 0) return sends;
    const out = new Set(suppressed.map((a) => `${a.channel} ${a.address}`));
    return sends.filter((s) => !out.has(`${s.channel} ${addressOf(s).trim().toLowerCase()}`));
  }

  return { dueReaders, sendBatch };
}

export type ReminderActivities = ReturnType<typeof createReminderActivities>;

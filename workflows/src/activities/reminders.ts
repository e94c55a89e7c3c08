import type {
  CheckinIssueBatchResponse,
  ClaimSendsResponse,
  DeliveryFactsRequest,
  DuePagesResponse,
  DueReader,
  DueReadersResponse,
  MintLinksResponse,
  RecordSendsResponse,
  ReminderEventData,
  ReminderLinkKind,
  RemindersPostsResponse,
  SuppressionCheckResponse,
} from '@nudge/contracts';
import { prefixedSubject } from '@nudge/email';
import {
  type Logger,
  type MailSender,
  processMetrics,
  sendIdOf,
  sendRetryAfterMs,
  trackingSigner,
  type WhatsAppSender,
} from '@nudge/platform';
import type { z } from 'zod';
import { chooseSubject, type SubjectStats } from '../bandit';
import {
  createReminderRenderer,
  paragraphsOf,
  preheaderOf,
  type ReminderEmailModel,
  reminderFirstname,
  teaserParagraphs,
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
  /** WHATSAPP_DAILY_RECIPIENTS: distinct WhatsApp numbers a day the account may reach (absent: no limit). */
  whatsappDailyRecipients?: number;
  /**
   * The running activity's link to its engine (Temporal: heartbeats and their details from the attempt before, the
   * cancellation of a worker's shutdown); undefined outside one (the embedded scheduler).
   */
  progress?: () => ActivityProgress | undefined;
  /** Delivered sends recorded at least this often within a page (with progress: what a crash can leave in doubt). */
  recordEvery?: number;
}

/** What a page's activity tells its engine and learns from it. */
export interface ActivityProgress {
  /** Reported as the attempt's progress (Temporal keeps the latest for the next attempt). */
  heartbeat(details: PageProgress): void;
  /** The last progress of the attempt before this one, if any. */
  details: PageProgress | undefined;
  /** Aborted when the engine cancels the activity (a worker shutting down). */
  signal: AbortSignal;
}

/** A page's sends delivered and not yet recorded (so a retry records them instead of asking whether they went). */
export interface PageProgress {
  delivered: Sent[];
}

export interface BatchResult {
  /** Messages delivered and recorded in this call. */
  sent: number;
  /** Send keys recorded before this call, or claimed by another slot of the same local day. */
  alreadySent: number;
  /** Readers with nothing to send (no post today). */
  nothing: number;
  /** Messages the transport refused (not recorded, claims released: a retry of the page tries them again). */
  failed: number;
  /** Messages not delivered because the slot's lateness limit passed first (late, or throttled until then). */
  skippedLate: number;
  /** Claimed by an earlier attempt of this slot and not recorded: not delivered again without an idempotency key. */
  inDoubt: number;
  /** WhatsApp messages beyond the account's daily distinct recipients. */
  overLimit: number;
  /**
   * Messages not sent to a suppressed address (a hard bounce, a complaint, an opt-out...), or refused by the mail
   * server for good (a 5xx answer: a hard bounce, recorded, so the address is suppressed from then on).
   */
  suppressed: number;
}
export type PageResult = BatchResult;

/** A slot's pages: where each ends (null: to the end), and where the next plan starts. */
export interface PagePlan {
  ends: (string | null)[];
  next: string | null;
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

/** Throttled deliveries wait at first this long, doubling up to THROTTLE_MAX_MS (with jitter). */
const THROTTLE_FIRST_MS = 500;
const THROTTLE_MAX_MS = 20_000;

/** The reminder activities: a slot's pages planned; one page sent by the delivery rule. */
export function createReminderActivities(deps: ReminderDeps) {
  const base = deps.publicUrl.replace(/\/$/, '');
  const random = deps.random ?? Math.random;
  const renderReminder = createReminderRenderer();

  async function dueReaders(input: {
    at: string;
    cursor?: string | null;
    until?: string | null;
    limit: number;
  }) {
    const res = await deps.call<z.infer<typeof DueReadersResponse>>('auth', '/internal/reminders/due', {
      at: input.at,
      limit: input.limit,
      ...(input.cursor ? { cursor: input.cursor } : {}),
      ...(input.until ? { until: input.until } : {}),
    });
    return { readers: res.readers, next: res.next };
  }

  /** The slot's next pages (auth reads only ids): where each ends. */
  async function planPages(input: {
    at: string;
    cursor: string | null;
    size: number;
    pages: number;
  }): Promise<PagePlan> {
    const res = await deps.call<z.infer<typeof DuePagesResponse>>('auth', '/internal/reminders/due-pages', {
      at: input.at,
      size: input.size,
      pages: input.pages,
      ...(input.cursor ? { cursor: input.cursor } : {}),
    });
    return { ends: res.ends, next: res.next };
  }

  /**
   * One page of a slot: its readers read from auth (the range after `after` up to `until`), then sent by the
   * delivery rule (sendBatch). Past the deadline it only counts them (skippedLate).
   */
  async function sendPage(input: {
    slot: string;
    after: string | null;
    until: string | null;
    deadline: number;
  }): Promise<PageResult> {
    const readers: DueReader[] = [];
    let cursor = input.after;
    do {
      const page = await dueReaders({ at: input.slot, cursor, until: input.until, limit: 1000 });
      readers.push(...page.readers);
      cursor = page.next;
    } while (cursor);
    if (deps.clock().getTime() > input.deadline) return { ...noResult(), skippedLate: readers.length };
    return sendBatch({ slot: input.slot, readers, deadline: input.deadline });
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
   * The delivery rule. Each send key is claimed for the slot before it is delivered (engagement answers which are
   * this call's to send), so no retry, catch-up or second worker sends it twice; then each message is rendered and
   * handed to the transport with the send key as its idempotency key, and the delivered ones are recorded (every
   * `recordEvery`, and at the end). A key this slot claimed before and never recorded is in doubt (an attempt that
   * died may have delivered it): delivered again only where the transport stores a key once (the capture outbox),
   * counted otherwise. With an engine's progress (Temporal), each delivery is reported as it happens, so a retry
   * records what the attempt before it delivered instead of doubting it. A throttling answer (SMTP 421/451/454, HTTP
   * 429) is retried with back-off until the deadline; a worker's shutdown stops the batch after the messages in
   * flight, records them, and fails the attempt (its retry goes on from there).
   */
  async function sendBatch(input: {
    slot: string;
    readers: DueReader[];
    deadline?: number;
  }): Promise<BatchResult> {
    const progress = deps.progress?.();
    const deadline = input.deadline ?? Number.POSITIVE_INFINITY;
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
    const result = noResult();
    if (wanted.length === 0) return result;
    const kept = await withoutSuppressed(wanted);
    result.suppressed = wanted.length - kept.length;
    wanted = kept;
    if (wanted.length === 0) return result;
    const metrics = processMetrics();
    const sentBy = { email: 0, whatsapp: 0 };
    /** Delivered, not yet recorded (what the heartbeat carries). */
    let pending: Sent[] = [];
    const record = async () => {
      if (pending.length === 0) return;
      const sends = pending;
      pending = [];
      // Recording appends one stream per send: give a large batch time (a timeout only re-runs the batch).
      const res = await deps.call<z.infer<typeof RecordSendsResponse>>(
        'engagement',
        '/internal/reminders/sent',
        { sends },
        120_000,
      );
      result.sent += res.recorded;
      result.alreadySent += res.duplicates;
      progress?.heartbeat({ delivered: pending });
    };
    // What the attempt before this one delivered and did not record: recorded now, not doubted below.
    const before = progress?.details?.delivered ?? [];
    if (before.length > 0) {
      pending = [...before];
      await record();
    }
    // The links (signed in auth's worker thread) and the day's posts (remembered picks, the same whether sent or
    // not) are asked for at once with the claim: the signing runs beside the rest of the batch's work. A resumed
    // batch asks for a few it will not send.
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
    const claim = await deps.call<z.infer<typeof ClaimSendsResponse>>(
      'engagement',
      '/internal/reminders/claim',
      {
        slot: input.slot,
        sends: wanted.map((s) => ({
          sendId: s.sendId,
          channel: s.channel,
          localDate: s.reader.localDate,
          ...(s.channel === 'whatsapp' && s.reader.whatsapp ? { to: s.reader.whatsapp } : {}),
        })),
        ...(deps.whatsappDailyRecipients === undefined
          ? {}
          : { whatsappDailyRecipients: deps.whatsappDailyRecipients }),
      },
    );
    const recordedBefore = new Set(before.map((s) => s.sendId));
    const transportOf = (channel: Send['channel']) => (channel === 'email' ? deps.mail : deps.whatsapp);
    const claimed = new Set(claim.claimed);
    const inDoubt = new Set(claim.inDoubt.filter((sendId) => !recordedBefore.has(sendId)));
    const todo = wanted.filter((s) => {
      if (claimed.has(s.sendId)) return true;
      if (!inDoubt.has(s.sendId)) return false;
      if (transportOf(s.channel).idempotent) return true;
      result.inDoubt += 1;
      deps.log.warn(
        { sendId: s.sendId, channel: s.channel, slot: input.slot },
        'reminder in doubt: an earlier attempt claimed it and may have delivered it; not sent again',
      );
      return false;
    });
    result.alreadySent += claim.recorded.length + claim.elsewhere.length;
    result.overLimit += claim.overLimit.length;
    if (claim.overLimit.length > 0)
      deps.log.warn(
        { slot: input.slot, count: claim.overLimit.length },
        'WhatsApp reminders beyond the daily distinct recipients (WHATSAPP_DAILY_RECIPIENTS): not sent',
      );
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

    /** Claims of sends that did not go (refused, or too late): released, so a retry of the page takes them. */
    const unsent: string[] = [];
    const bounces: DeliveryFact[] = [];
    // A post's paragraphs as each gating shows them, once per batch (one array: the renderer knows it again).
    const paragraphs = new Map<string, { shown: string[]; preheader: string }>();
    const paragraphsOfPost = (template: (typeof posts)[string]['template']) => {
      const key = `${template._id} ${template.locked === true}`;
      let found = paragraphs.get(key);
      if (!found) {
        const all = paragraphsOf(template.locked ? template.preview : template.body);
        // A locked post's preview is short already; a free one is whole only when the site asks for whole posts.
        const shown = template.locked || settings.emailfullpost ? all : teaserParagraphs(all);
        found = { shown, preheader: preheaderOf(all) };
        paragraphs.set(key, found);
      }
      return found;
    };
    /** Hands the message over, waiting out throttling answers while the deadline allows; false when it passed. */
    const handOver = async (send: () => Promise<void>): Promise<boolean> => {
      for (let attempt = 0; ; attempt++) {
        try {
          await send();
          return true;
        } catch (err) {
          const wait = sendRetryAfterMs(err, attempt, THROTTLE_FIRST_MS, THROTTLE_MAX_MS, random);
          if (wait === null) throw err;
          if (deps.clock().getTime() + wait > deadline) return false;
          metrics.reminderThrottled.inc({ service: 'workflows' });
          // Still alive while it waits (the engine's heartbeat timeout is shorter than the longest wait).
          progress?.heartbeat({ delivered: pending });
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    };
    const stopped = () => progress?.signal.aborted === true;
    const deliver = async (send: Send) => {
      const { reader, channel, sendId } = send;
      const post = postOf(reader.userId);
      const link = links[reader.userId];
      if (!post || !link) {
        result.nothing += 1;
        unsent.push(sendId);
        return;
      }
      if (deps.clock().getTime() > deadline) {
        result.skippedLate += 1;
        unsent.push(sendId);
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
      let delivered: boolean;
      try {
        if (channel === 'whatsapp') {
          const message = {
            to: reader.whatsapp ?? '',
            text: whatsappText(post.template.heading, paragraphsOfPost(post.template).preheader, continueUrl),
            idempotencyKey: sendId,
          };
          delivered = await handOver(() => deps.whatsapp.send(message));
        } else {
          const checkin = checkins[reader.userId];
          const shown = paragraphsOfPost(post.template);
          const model: ReminderEmailModel = {
            settings,
            firstname: reminderFirstname(reader.firstname),
            heading: post.template.heading,
            preheader: shown.preheader,
            paragraphs: shown.shown,
            fullPost: post.template.locked !== true && settings.emailfullpost,
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
          const message = {
            to: reader.email,
            subject: subjectLine,
            html,
            text,
            headers: {
              'List-Unsubscribe': `<${base}/api/user/unsubscribe/${encodeURIComponent(link.unsubscribe)}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
            idempotencyKey: sendId,
          };
          delivered = await handOver(() => deps.mail.send(message));
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
          unsent.push(sendId);
          return;
        }
        deps.log.warn({ err, sendId, channel }, 'reminder delivery failed; not recorded, a retry sends it');
        metrics.reminderFailures.inc({ service: 'workflows', channel });
        result.failed += 1;
        unsent.push(sendId);
        return;
      }
      if (!delivered) {
        result.skippedLate += 1;
        unsent.push(sendId);
        return;
      }
      sentBy[channel] += 1;
      pending.push({
        ...facts,
        subject: channel === 'email' ? subjectLine : null,
        slot: reader.slot,
        timeZone: reader.timeZone,
        checkinQuestionId: channel === 'email' ? (checkins[reader.userId]?.question._id ?? null) : null,
        locked: post.template.locked === true,
        sentAt: deps.clock().toISOString(),
      });
      progress?.heartbeat({ delivered: pending });
    };
    // Bounded concurrency: the transport groups the writes of messages handed over together (the outbox files).
    // DELIVERY_CONCURRENCY lanes, each taking the next send when its last one is handed over.
    const recordEvery = deps.recordEvery ?? Number.POSITIVE_INFINITY;
    let next = 0;
    const lane = async () => {
      while (next < todo.length && !stopped()) {
        await deliver(todo[next++] as Send);
        if (pending.length >= recordEvery) await record();
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, todo.length) }, lane));
    } finally {
      for (const channel of ['email', 'whatsapp'] as const)
        if (sentBy[channel] > 0)
          metrics.remindersSent.inc({ service: 'workflows', channel }, sentBy[channel]);
      await record();
      if (bounces.length > 0)
        await deps.call('engagement', '/internal/suppressions/facts', {
          facts: bounces,
        } satisfies DeliveryFacts);
      if (unsent.length > 0)
        await deps.call('engagement', '/internal/reminders/release', { slot: input.slot, sendIds: unsent });
    }
    if (stopped()) throw progress?.signal.reason ?? new Error('the reminder batch was cancelled');
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

  return { planPages, sendPage, sendBatch };
}

export type ReminderActivities = ReturnType<typeof createReminderActivities>;

const noResult = (): BatchResult => ({
  sent: 0,
  alreadySent: 0,
  nothing: 0,
  failed: 0,
  skippedLate: 0,
  inDoubt: 0,
  overLimit: 0,
  suppressed: 0,
});

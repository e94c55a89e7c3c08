import { randomUUID } from 'node:crypto';
import {
  type ReminderEventData,
  ReminderEvents,
  type ReminderLinkKind,
  TrackingClaims,
} from '@nudge/contracts';
import {
  ConcurrencyError,
  type DocumentStore,
  DuplicateKeyError,
  handleCommand,
  type ServiceEventStore,
  verifyTracking,
} from '@nudge/platform';
import { type ReminderFact, reminderDecider } from '../domain/reminders';
import { reminderSendsCollection, reminderStream } from '../events/reminders-projection';

type Sent = ReminderEventData<'ReminderSent'>;

/**
 * A send key taken by one slot before delivery (a lease with no end: a send claimed and never recorded stays with
 * its slot, so nothing sends it twice). Kept CLAIMS_KEPT_MS, long after every slot that could want the key.
 */
interface ClaimDoc {
  _id: string;
  slot: string;
  channel: 'email' | 'whatsapp';
  /** The WhatsApp number (the daily distinct recipients are counted from these). */
  to?: string;
  at: number;
  /** The claim call that took it (tells its own inserts from another claimer's). */
  call: string;
}
const CLAIMS_KEPT_MS = 3 * 24 * 3600_000;
const DAY_MS = 24 * 3600_000;

export interface ClaimInput {
  slot: string;
  sends: { sendId: string; channel: 'email' | 'whatsapp'; localDate: string; to?: string | undefined }[];
  whatsappDailyRecipients?: number | undefined;
}

/** Sends recorded per appendMany (one counter advance, one insert, one projection pass and one mark each). */
const RECORD_CHUNK = 500;

/**
 * The reminder facts engagement owns: sends (ReminderSent with expectedVersion 0 on `reminder-<sendId>`, so a
 * second record of a key is refused by the event store), opens (once per send) and clicks.
 */
export function createReminders(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  trackingSecret: Buffer;
  clock: () => Date;
}) {
  const sends = reminderSendsCollection(deps.store);

  const claims = deps.store.collection<ClaimDoc>('reminder_claims');
  let prunedAt = 0;

  /**
   * Claims a batch's send keys for one slot before they are delivered (ClaimSendsRequest says what each answer
   * means). A key is taken by inserting its claim under the key itself, so of two workers or attempts claiming it at
   * once exactly one gets it. Claims older than CLAIMS_KEPT_MS are pruned here, at most once an hour.
   */
  async function claim(input: ClaimInput) {
    const now = deps.clock().getTime();
    const call = randomUUID();
    const ids = input.sends.map((s) => s.sendId);
    const out = {
      claimed: [] as string[],
      recorded: [] as string[],
      inDoubt: [] as string[],
      elsewhere: [] as string[],
      overLimit: [] as string[],
    };
    const [sent, held] = await Promise.all([
      sends.find({ _id: { $in: ids } }, { projection: { _id: 1 } }),
      claims.find({ _id: { $in: ids } }),
    ]);
    const done = new Set(sent.map((d) => d._id));
    const heldBy = new Map(held.map((c) => [c._id, c.slot]));
    const answer = (sendId: string, slot: string | undefined) => {
      if (done.has(sendId)) out.recorded.push(sendId);
      else if (slot === input.slot) out.inDoubt.push(sendId);
      else out.elsewhere.push(sendId);
    };
    let fresh = input.sends.filter((s) => {
      if (done.has(s.sendId) || heldBy.has(s.sendId)) {
        answer(s.sendId, heldBy.get(s.sendId));
        return false;
      }
      return true;
    });
    if (input.whatsappDailyRecipients !== undefined && fresh.some((s) => s.channel === 'whatsapp')) {
      const today = await claims.find(
        { channel: 'whatsapp', at: { $gte: now - DAY_MS } },
        { projection: { to: 1 } },
      );
      const recipients = new Set(today.map((c) => c.to));
      fresh = fresh.filter((s) => {
        if (s.channel !== 'whatsapp' || recipients.has(s.to)) return true;
        if (recipients.size >= (input.whatsappDailyRecipients ?? 0)) {
          out.overLimit.push(s.sendId);
          return false;
        }
        recipients.add(s.to);
        return true;
      });
    }
    const docOf = (s: ClaimInput['sends'][number]): ClaimDoc => ({
      _id: s.sendId,
      slot: input.slot,
      channel: s.channel,
      ...(s.to ? { to: s.to } : {}),
      at: now,
      call,
    });
    try {
      await claims.insertMany(fresh.map(docOf));
      out.claimed.push(...fresh.map((s) => s.sendId));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Another claimer took some of them meanwhile: one at a time, each insert decides.
      for (const s of fresh) {
        try {
          await claims.insertOne(docOf(s));
          out.claimed.push(s.sendId);
        } catch (clash) {
          if (!(clash instanceof DuplicateKeyError)) throw clash;
          const other = await claims.findOne({ _id: s.sendId });
          if (other?.call === call) out.claimed.push(s.sendId);
          else answer(s.sendId, other?.slot);
        }
      }
    }
    if (now - prunedAt > 3600_000) {
      prunedAt = now;
      await claims.deleteMany({ at: { $lt: now - CLAIMS_KEPT_MS } });
    }
    return out;
  }

  /** Gives back a slot's claims of sends that did not go (a claim of another slot is left alone). */
  async function release(input: { slot: string; sendIds: string[] }) {
    const { deletedCount } = await claims.deleteMany({ _id: { $in: input.sendIds }, slot: input.slot });
    return { released: deletedCount };
  }

  async function recorded(sendIds: string[]) {
    const docs = await sends.find(
      { _id: { $in: sendIds } },
      { projection: { _id: 1, opened: 1, clicks: 1 } },
    );
    return {
      recorded: docs.map((d) => d._id),
      opened: docs.filter((d) => d.opened).map((d) => d._id),
      clicked: docs.filter((d) => d.clicks > 0).map((d) => d._id),
    };
  }

  async function record(batch: Sent[]) {
    let count = 0;
    let duplicates = 0;
    // One new stream per send (expectedVersion 0: a key recorded before is refused on its own), appended in chunks.
    for (let from = 0; from < batch.length; from += RECORD_CHUNK) {
      const results = await deps.events.appendMany(
        batch.slice(from, from + RECORD_CHUNK).map((send) => ({
          stream: reminderStream(send.sendId),
          expectedVersion: 0,
          events: [{ type: ReminderEvents.ReminderSent.type, data: send }],
        })),
        { actor: 'system' },
      );
      for (const result of results) {
        if (result.ok) count += 1;
        else if (result.error instanceof ConcurrencyError) duplicates += 1;
        else throw result.error;
      }
    }
    return { recorded: count, duplicates };
  }

  /** The claims of a valid tracking token, or null. */
  function claimsOf(token: string): TrackingClaims | null {
    const parsed = TrackingClaims.safeParse(verifyTracking(deps.trackingSecret, token));
    return parsed.success ? parsed.data : null;
  }

  const facts = (c: TrackingClaims) => ({
    sendId: c.sendId,
    userId: c.userId,
    channel: c.channel,
    localDate: c.localDate,
    templateId: c.templateId,
    subjectId: c.subjectId,
  });

  /** Records a fact of a send the reader's client reports; false when it records nothing (an unknown send, a repeat). */
  async function recordFact(claims: TrackingClaims, fact: ReminderFact) {
    const result = await handleCommand(deps.events, reminderStream(claims.sendId), reminderDecider, fact, {
      actor: claims.userId,
    });
    return result.events.length > 0;
  }

  return {
    ensureIndexes: () =>
      Promise.all([claims.createIndex({ at: 1 }), claims.createIndex({ channel: 1, at: 1 })]).then(
        () => undefined,
      ),
    claim,
    release,
    recorded,
    record,
    claimsOf,
    /** Records the first open of a send; a repeat load records nothing. */
    async opened(claims: TrackingClaims) {
      return recordFact(claims, {
        kind: 'open',
        data: { ...facts(claims), openedAt: deps.clock().toISOString() },
      });
    },
    async clicked(claims: TrackingClaims, link: ReminderLinkKind) {
      return recordFact(claims, {
        kind: 'click',
        data: { ...facts(claims), link, clickedAt: deps.clock().toISOString() },
      });
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;

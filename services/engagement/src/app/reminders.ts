import {
  type ReminderEventData,
  ReminderEvents,
  type ReminderLinkKind,
  TrackingClaims,
} from '@nudge/contracts';
import {
  ConcurrencyError,
  type DocumentStore,
  retryOnConflict,
  type ServiceEventStore,
  verifyTracking,
} from '@nudge/platform';
import { reminderSendsCollection, reminderStream } from '../events/reminders-projection';

type Sent = ReminderEventData<'ReminderSent'>;

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

  /** Appends after the stream's head, deciding again when a parallel fact moved it. */
  function appendFact(
    sendId: string,
    decide: (doc: { opened: boolean }) => { type: string; data: unknown } | null,
  ) {
    return retryOnConflict(async () => {
      const doc = await sends.findOne({ _id: sendId });
      if (!doc) return false; // never sent (or not yet projected): nothing to attach the fact to
      const event = decide(doc);
      if (!event) return false;
      await deps.events.append(reminderStream(sendId), doc.version, [event], { actor: doc.userId });
      return true;
    });
  }

  return {
    recorded,
    record,
    claimsOf,
    /** Records the first open of a send; a repeat load records nothing. */
    async opened(claims: TrackingClaims) {
      const at = deps.clock().toISOString();
      return appendFact(claims.sendId, (doc) =>
        doc.opened
          ? null
          : { type: ReminderEvents.ReminderOpened.type, data: { ...facts(claims), openedAt: at } },
      );
    },
    async clicked(claims: TrackingClaims, link: ReminderLinkKind) {
      const at = deps.clock().toISOString();
      return appendFact(claims.sendId, () => ({
        type: ReminderEvents.ReminderClicked.type,
        data: { ...facts(claims), link, clickedAt: at },
      }));
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;

import { eventData, ReminderEvents } from '@nudge/contracts';
import {
  ConcurrencyError,
  type DocumentStore,
  DuplicateKeyError,
  type EventEnvelope,
  type EventHandler,
} from '@nudge/platform';
import type { UserRepository } from '../app/user-repository';
import { decideCold, decideWarm } from '../domain/cold';
import type { DecidedEvent, UserState } from '../domain/user';

/**
 * Per user: reminder e-mails sent since the last open or click, the last sends counted (so a redelivery counts once)
 * and how many sends were ever counted (`sends`, which guards trimming `counted`).
 */
type UnopenedDoc = { _id: string; unopened: number; counted: string[]; sends?: number };
export const REMINDER_COUNTS = 'reminder_unopened';

/**
 * A send is counted once by its key (`counted`), so its delivery needs no processed-event record: the consumer skips
 * that read and write for it (two statements and a commit per send of a reminder slot). Opens and clicks keep the
 * record: an old open delivered again after newer sends would reset their count.
 */
/**
 * Starts a reader's count of unopened e-mails again: a reader who engaged (an open, a click, a sign-in) is no longer
 * "N unopened in a row", so the next send after a sign-in does not make a just-warmed reader cold again at once.
 */
export const resetUnopened = (store: DocumentStore, userId: string) =>
  store.collection<UnopenedDoc>(REMINDER_COUNTS).updateOne({ _id: userId }, { $set: { unopened: 0 } });

export const REMINDER_IDEMPOTENT_TYPES: readonly string[] = [ReminderEvents.ReminderSent.type];

/**
 * Engagement's reminder facts (topic nudge.engagement.events, consumer group 'auth') drive the cold / autoactive
 * status: each e-mail sent counts one more unopened; an open or click resets the count and warms a cold reader.
 */
export function createReminderHandlers(deps: {
  store: DocumentStore;
  users: UserRepository;
  coldAfter: number;
}) {
  const counts = deps.store.collection<UnopenedDoc>(REMINDER_COUNTS);

  async function record(userId: string, decide: (user: UserState) => DecidedEvent[]) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const user = await deps.users.get(userId);
      if (!user) return;
      try {
        await deps.users.record(user, decide(user), 'system');
        return;
      } catch (err) {
        if (!(err instanceof ConcurrencyError)) throw err;
      }
    }
  }

  // The last few send keys are enough to make a redelivered event count once; `counted` is trimmed back to this many
  // when it has grown to twice as many.
  const keep = deps.coldAfter + 5;

  /**
   * Counts a send once per send key in one atomic update (sends of one user arrive on different streams, so at the
   * same time): the filter misses when the key was counted, and the upsert then meets the user's document.
   */
  const sent: EventHandler = async (event: EventEnvelope) => {
    const d = eventData(ReminderEvents.ReminderSent, event);
    if (d.channel !== 'email') return;
    let doc: UnopenedDoc | null;
    try {
      doc = await counts.findOneAndUpdate(
        { _id: d.userId, counted: { $ne: d.sendId } },
        { $inc: { unopened: 1, sends: 1 }, $push: { counted: d.sendId } },
        { upsert: true },
      );
    } catch (err) {
      if (err instanceof DuplicateKeyError) return; // counted before
      throw err;
    }
    if (!doc) return;
    if (doc.counted.length >= 2 * keep)
      // Only if no other send was counted since (then `sends` moved, and a later send trims).
      await counts.updateOne(
        { _id: d.userId, sends: doc.sends },
        { $set: { counted: doc.counted.slice(-keep) } },
      );
    // Below the threshold decideCold decides nothing: the user is not read (a reminder slot sends many).
    const { unopened } = doc;
    if (unopened >= deps.coldAfter)
      await record(d.userId, (user) => decideCold(user, unopened, deps.coldAfter));
  };

  const engaged: EventHandler = async (event: EventEnvelope) => {
    const opened = event.type === ReminderEvents.ReminderOpened.type;
    const d = opened
      ? eventData(ReminderEvents.ReminderOpened, event)
      : eventData(ReminderEvents.ReminderClicked, event);
    if (d.channel !== 'email' && opened) return;
    await resetUnopened(deps.store, d.userId);
    await record(d.userId, decideWarm);
  };

  return {
    [ReminderEvents.ReminderSent.type]: sent,
    [ReminderEvents.ReminderOpened.type]: engaged,
    [ReminderEvents.ReminderClicked.type]: engaged,
  } as Record<string, EventHandler>;
}

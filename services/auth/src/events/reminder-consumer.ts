import { eventData, ReminderEvents } from '@nudge/contracts';
import { ConcurrencyError, type DocumentStore, type EventEnvelope, type EventHandler } from '@nudge/platform';
import type { UserRepository } from '../app/user-repository';
import { decideCold, decideWarm } from '../domain/cold';
import type { DecidedEvent, UserState } from '../domain/user';

/** Per user: reminder e-mails sent since the last open or click (and the sends counted, so a redelivery counts once). */
type UnopenedDoc = { _id: string; unopened: number; counted: string[] };
export const REMINDER_COUNTS = 'reminder_unopened';

/**
 * A send is counted once by its key (`counted`), so its delivery needs no processed-event record: the consumer skips
 * that read and write for it (two statements and a commit per send of a reminder slot). Opens and clicks keep the
 * record: an old open delivered again after newer sends would reset their count.
 */
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

  const sent: EventHandler = async (event: EventEnvelope) => {
    const d = eventData(ReminderEvents.ReminderSent, event);
    if (d.channel !== 'email') return;
    const doc = await counts.findOne({ _id: d.userId });
    if (doc?.counted?.includes(d.sendId)) return;
    const unopened = (doc?.unopened ?? 0) + 1;
    // The last few send keys are enough to make a redelivered event count once.
    const counted = [...(doc?.counted ?? []), d.sendId].slice(-deps.coldAfter - 5);
    await counts.updateOne({ _id: d.userId }, { $set: { unopened, counted } }, { upsert: true });
    // Below the threshold decideCold decides nothing: the user is not read (a reminder slot sends many).
    if (unopened >= deps.coldAfter)
      await record(d.userId, (user) => decideCold(user, unopened, deps.coldAfter));
  };

  const engaged: EventHandler = async (event: EventEnvelope) => {
    const opened = event.type === ReminderEvents.ReminderOpened.type;
    const d = opened
      ? eventData(ReminderEvents.ReminderOpened, event)
      : eventData(ReminderEvents.ReminderClicked, event);
    if (d.channel !== 'email' && opened) return;
    await counts.updateOne({ _id: d.userId }, { $set: { unopened: 0 } }, { upsert: true });
    await record(d.userId, decideWarm);
  };

  return {
    [ReminderEvents.ReminderSent.type]: sent,
    [ReminderEvents.ReminderOpened.type]: engaged,
    [ReminderEvents.ReminderClicked.type]: engaged,
  } as Record<string, EventHandler>;
}

import { eventData, ReminderEvents } from '@nudge/contracts';
import type { DecidedEvent } from '@nudge/platform';
import {
  type DocumentStore,
  DuplicateKeyError,
  type EventEnvelope,
  type EventHandler,
} from '@nudge/platform';
import type { UserRepository } from '../app/user-repository';
import { decideCold, decideWarm } from '../domain/cold';
import type { UserState } from '../domain/user';

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

  const record = (userId: string, decide: (user: UserState) => DecidedEvent[]) =>
    deps.users.update(userId, decide, 'system');

  // The last few send keys are enough to make a redelivered event count once; `counted` is trimmed back to this many
  // when it has grown to twice as many.
  const keep = deps.coldAfter + 5;

  /**
   * Counts a send once per send key in one atomic update (sends of one user arrive on different streams, so at the
   * same time): the filter misses when the key was counted, and the upsert then meets the user's document. The
   * batched path below falls back to this one whenever its guarded writes miss.
   */
  async function countOne(userId: string, sendId: string): Promise<void> {
    let doc: UnopenedDoc | null;
    try {
      doc = await counts.findOneAndUpdate(
        { _id: userId, counted: { $ne: sendId } },
        { $inc: { unopened: 1, sends: 1 }, $push: { counted: sendId } },
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
        { _id: userId, sends: doc.sends },
        { $set: { counted: doc.counted.slice(-keep) } },
      );
    await afterCount(userId, doc.unopened);
  }

  // Below the threshold decideCold decides nothing: the user is not read (a reminder slot sends many).
  const afterCount = async (userId: string, unopened: number) => {
    if (unopened >= deps.coldAfter)
      await record(userId, (user) => decideCold(user, unopened, deps.coldAfter));
  };

  /**
   * The sends of a batch (the bus hands up to a page of streams to the consumer at once, and a reminder slot's sends
   * are one stream each): their users' documents in one read; the users without one get theirs in one insert, the
   * others an update guarded by the counts read (so an open's reset or another replica's count in between makes it
   * miss, and that send takes the one-at-a-time path). A send whose key the document holds was counted before.
   */
  async function countMany(batch: Array<{ userId: string; sendId: string }>): Promise<void> {
    const found = new Map(
      (await counts.find({ _id: { $in: batch.map((s) => s.userId) } })).map((doc) => [doc._id, doc]),
    );
    const fresh: UnopenedDoc[] = [];
    const updates: Array<Promise<void>> = [];
    for (const { userId, sendId } of batch) {
      const doc = found.get(userId);
      if (!doc) {
        fresh.push({ _id: userId, unopened: 1, counted: [sendId], sends: 1 });
        continue;
      }
      if (doc.counted.includes(sendId)) continue; // counted before
      const counted = [...doc.counted, sendId];
      const next = {
        unopened: doc.unopened + 1,
        sends: (doc.sends ?? 0) + 1,
        counted: counted.length >= 2 * keep ? counted.slice(-keep) : counted,
      };
      updates.push(
        counts
          .updateOne(
            { _id: userId, unopened: doc.unopened, sends: doc.sends ?? { $exists: false } },
            { $set: next },
          )
          .then(({ matchedCount }) =>
            matchedCount === 1 ? afterCount(userId, next.unopened) : countOne(userId, sendId),
          ),
      );
    }
    if (fresh.length > 0) updates.push(insertFresh(fresh));
    await Promise.all(updates);
  }

  /** New documents in one write; when another replica made some first, each send by the one-at-a-time path. */
  async function insertFresh(docs: UnopenedDoc[]): Promise<void> {
    try {
      await counts.insertMany(docs);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Some were inserted before the clash: counting them again finds their key and skips it.
      await Promise.all(docs.map((doc) => countOne(doc._id, doc.counted[0] as string)));
      return;
    }
    await Promise.all(docs.map((doc) => afterCount(doc._id, doc.unopened)));
  }

  /**
   * Sends handed to the handler in the same turn of the event loop are counted together (countMany). The consumer
   * handles one user's events one after another, so a batch names each user once; a second send of a user in one
   * batch (another consumer setup) waits for the next batch.
   */
  let waiting: Array<{ userId: string; sendId: string; done: (err?: unknown) => void }> = [];
  const flush = () => {
    const all = waiting;
    waiting = [];
    const batch: typeof all = [];
    const users = new Set<string>();
    for (const send of all) {
      if (users.has(send.userId)) waiting.push(send);
      else {
        users.add(send.userId);
        batch.push(send);
      }
    }
    if (waiting.length > 0) setImmediate(flush);
    const counting = batch.length === 1 ? countOne(batch[0]!.userId, batch[0]!.sendId) : countMany(batch);
    counting.then(
      () => {
        for (const send of batch) send.done();
      },
      (err: unknown) => {
        for (const send of batch) send.done(err);
      },
    );
  };

  const sent: EventHandler = async (event: EventEnvelope) => {
    const d = eventData(ReminderEvents.ReminderSent, event);
    if (d.channel !== 'email') return;
    await new Promise<void>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ userId: d.userId, sendId: d.sendId, done: (err) => (err ? reject(err) : resolve()) });
    });
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

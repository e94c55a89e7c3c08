import { type DocumentStore, type EventStore, retryOnConflict } from '@nudge/platform';
import type { DecidedEvent, SubscriptionState } from '../domain/subscription';
import { subscriptionStream } from '../domain/subscription';
import { subscriptionsCollection } from '../events/subscriptions-projection';

/**
 * Loads subscriptions from the read model (kept current by the projection right after each append) and records
 * decisions as events on the subscription's stream, with the read model's version as the expected version.
 */
export function createSubscriptionRepository(store: DocumentStore, events: EventStore) {
  const subscriptions = subscriptionsCollection(store);
  const listeners: Array<(state: SubscriptionState) => Promise<void>> = [];

  const get = (id: string) => subscriptions.findOne({ _id: id });
  const byUser = (userId: string) => subscriptions.find({ userId }, { sort: { createdAt: -1 } });

  async function record(
    state: SubscriptionState | null,
    streamId: string,
    decided: DecidedEvent[],
    actor: string | null,
  ): Promise<SubscriptionState | null> {
    if (decided.length === 0) return state;
    await events.append(subscriptionStream(streamId), state?.version ?? 0, decided, { actor });
    const recorded = await get(streamId);
    if (recorded) for (const listener of listeners) await listener(recorded);
    return recorded;
  }

  /**
   * Decides on the latest state and records the result; on a concurrent change, decides again on the new state.
   * `decide` returning null means the subscription is unknown.
   */
  async function update(
    id: string,
    decide: (state: SubscriptionState) => DecidedEvent[] | Promise<DecidedEvent[]>,
    actor: string | null,
  ): Promise<{ state: SubscriptionState; decided: DecidedEvent[] } | null> {
    return retryOnConflict(async () => {
      const state = await get(id);
      if (!state) return null;
      const decided = await decide(state);
      const updated = await record(state, id, decided, actor);
      return { state: updated ?? state, decided };
    });
  }

  return {
    subscriptions,
    get,
    byUser,
    record,
    update,
    /** Called after every recorded change of a subscription (the renewal workflow's signal). */
    onRecorded(listener: (state: SubscriptionState) => Promise<void>) {
      listeners.push(listener);
    },
  };
}

export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;

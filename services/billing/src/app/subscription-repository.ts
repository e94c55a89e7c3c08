import {
  type DecidedEvent,
  type DocumentStore,
  type EventStore,
  handleCommand,
  stateOf,
} from '@nudge/platform';
import {
  type SubscriptionDecision,
  type SubscriptionState,
  subscriptionDecider,
  subscriptionStream,
} from '../domain/subscription';
import { subscriptionsCollection } from '../events/subscriptions-projection';

/**
 * Reads subscriptions from the read model (kept current by the projection right after each append); records
 * decisions as commands on the subscription's stream, decided on the state the stream folds to.
 */
export function createSubscriptionRepository(store: DocumentStore, events: EventStore) {
  const subscriptions = subscriptionsCollection(store);
  const listeners: Array<(state: SubscriptionState) => Promise<void>> = [];

  const get = (id: string) => subscriptions.findOne({ _id: id });
  const byUser = (userId: string) => subscriptions.find({ userId }, { sort: { createdAt: -1 } });

  /** Decides on the subscription as its stream folds now; on a concurrent change, decides again on the new state. */
  async function command(id: string, decision: SubscriptionDecision, actor: string | null) {
    const result = await handleCommand(events, subscriptionStream(id), subscriptionDecider, decision, {
      actor,
    });
    if (result.events.length > 0 && result.state)
      for (const listener of listeners) await listener(result.state);
    return result;
  }

  /** Records a new subscription's first events (decideCreate); null when a subscription of this id exists. */
  async function create(id: string, decided: readonly DecidedEvent[], actor: string | null) {
    const result = await command(id, (state) => (state ? [] : decided), actor);
    return result.events.length > 0 ? result.state : null;
  }

  /**
   * Decides on the latest state and records the result; on a concurrent change, decides again on the new state.
   * Null when the subscription is unknown.
   */
  async function update(
    id: string,
    decide: (state: SubscriptionState) => readonly DecidedEvent[] | Promise<readonly DecidedEvent[]>,
    actor: string | null,
  ): Promise<{ state: SubscriptionState; decided: readonly DecidedEvent[] } | null> {
    const result = await command(id, (state) => (state ? decide(state) : []), actor);
    return result.state ? { state: result.state, decided: result.events } : null;
  }

  /** The subscription as its stream folds (never a read model's copy): what a decision on another stream needs. */
  const load = async (id: string) =>
    stateOf(subscriptionDecider, await events.readStream(subscriptionStream(id)));

  return {
    subscriptions,
    get,
    load,
    byUser,
    create,
    update,
    /** Called after every recorded change of a subscription (the renewal workflow's signal). */
    onRecorded(listener: (state: SubscriptionState) => Promise<void>) {
      listeners.push(listener);
    },
  };
}

export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;

import { createWindowCounter, type DocumentStore, tooManyRequests } from '@nudge/platform';

const MINUTE_MS = 60_000;

/**
 * How many web events one client address may send without signing in, per minute (INTAKE_EVENTS_PER_MINUTE): every
 * replica counts into the same counters (the document store), events rather than requests, so a batch of 100 costs
 * 100. A signed-in reader is not counted here (the gateway's rate limit and the telemetry's retention bound them).
 */
export function createIntakeBudget(
  store: DocumentStore,
  eventsPerMinute: number,
  clock: () => Date = () => new Date(),
) {
  const counter = createWindowCounter(store, 'anonymous_web_events', { windowMs: MINUTE_MS, clock });
  return {
    /** Takes `events` from the address's budget, or refuses (429) and takes nothing. */
    async take(address: string, events: number): Promise<void> {
      const { count } = await counter.increment(address, events);
      if (count <= eventsPerMinute) return;
      await counter.decrement(address, events);
      throw tooManyRequests(
        `Too many events: at most ${eventsPerMinute} a minute from one address without signing in; please try again later`,
      );
    },
  };
}

export type IntakeBudget = ReturnType<typeof createIntakeBudget>;

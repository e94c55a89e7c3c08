import { type DecidedEvent, type Decider, stateOf } from '../events/command';
import type { EventEnvelope } from '../events/types';

/** Stored envelopes of a stream's events, versions from 1, for a decider's given / when / then tests. */
export const history = (events: readonly DecidedEvent[], stream = 'stream-1'): EventEnvelope[] =>
  events.map((event, i) => ({
    id: `${stream}:${i + 1}`,
    type: event.type,
    stream,
    version: i + 1,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    actor: null,
    data: event.data,
    meta: {},
  }));

/**
 * A decider test that reads as given / when / then:
 * `expect(await given(decider, [liked]).when(unlike)).toEqual([unliked])`; a refusal: `.rejects.toThrow(...)`.
 */
export function given<S, C>(decider: Decider<S, C>, events: readonly DecidedEvent[], stream?: string) {
  const state = stateOf(decider, history(events, stream));
  return {
    state,
    when: async (command: C): Promise<readonly DecidedEvent[]> => decider.decide(command, state),
  };
}

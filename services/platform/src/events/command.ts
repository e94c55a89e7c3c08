import { ConcurrencyError } from '../errors';
import type { AppendOptions, EventEnvelope, EventStore, NewEvent } from './types';

/** An event a decision causes; the event store adds its id, stream, version, time and meta when it appends it. */
export type DecidedEvent<D = unknown> = NewEvent<D>;

/**
 * One aggregate's rules. Its state is `evolve` folded over its stream's events from `initialState`; `decide` answers a
 * command on that state with the events the command causes (none: nothing changes), or throws to refuse it. Both are
 * pure; `decide` may await when the decision waits on another stream's command (billing's premium claim).
 */
export interface Decider<S, C> {
  readonly initialState: S;
  evolve(state: S, event: EventEnvelope): S;
  decide(command: C, state: S): readonly DecidedEvent[] | Promise<readonly DecidedEvent[]>;
}

export interface CommandOptions extends AppendOptions {
  /** How many times a command that lost a race is decided again before its conflict is answered (a 409). */
  retries?: number;
}

export interface CommandResult<S> {
  /** The stream's state after the command: its new events folded in. */
  state: S;
  /** What the command appended (none when the decision changed nothing). */
  events: EventEnvelope[];
  /** The stream's version after the command (0: the stream has no events). */
  version: number;
}

/** Times a command is decided again after a lost race: enough for a burst of requests on one stream. */
export const CONFLICT_RETRIES = 11;

/** Folds a stream's events into the decider's state. */
export const stateOf = <S, C>(decider: Decider<S, C>, events: readonly EventEnvelope[]): S =>
  events.reduce((state, event) => decider.evolve(state, event), decider.initialState);

/**
 * The one way a command changes a stream: read the stream, fold it into the state, decide, append at the version read.
 * When the append lost a race (another request appended to the stream between the read and the write: a
 * ConcurrencyError), the command is read and decided again, so its outcome is the one it would have had after the
 * other request. Between attempts it waits a random while up to a bound that doubles from 10 ms to at most 200 ms
 * ("full jitter"), so contenders on one stream, in one process or many, do not meet again in step: a burst of a few
 * dozen requests on one stream gets through in a second or two. After `retries` the ConcurrencyError goes on: a 409
 * whose message says to try again. Any other error (a refusal) goes on at once.
 */
export async function handleCommand<S, C>(
  store: Pick<EventStore, 'readStream' | 'append'>,
  stream: string,
  decider: Decider<S, C>,
  command: C,
  options: CommandOptions = {},
): Promise<CommandResult<S>> {
  const { retries = CONFLICT_RETRIES, ...append } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      const history = await store.readStream(stream);
      const state = stateOf(decider, history);
      const version = history.at(-1)?.version ?? 0;
      const decided = await decider.decide(command, state);
      if (decided.length === 0) return { state, events: [], version };
      const stored = await store.append(stream, version, [...decided], append);
      return {
        state: stored.reduce((next, event) => decider.evolve(next, event), state),
        events: stored,
        version: stored.at(-1)?.version ?? version,
      };
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= retries) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * 2 ** attempt)));
    }
  }
}

/** A command of a snapshot aggregate: add it, or update it. */
export type SnapshotCommand<A, U> = ({ kind: 'add' } & A) | ({ kind: 'update' } & U);

/**
 * The decider of an aggregate each of whose events carries its whole state (a snapshot: a post, a report): `add`
 * records the first one (nothing when the stream has one already: a retried request), `update` decides on the latest
 * and an update of a stream never added is refused with `notFound`.
 */
export function snapshotDecider<S, A, U>(rules: {
  evolve: (state: S | null, event: EventEnvelope) => S | null;
  add: (command: A) => readonly DecidedEvent[];
  update: (state: S, command: U) => readonly DecidedEvent[];
  notFound: () => Error;
}): Decider<S | null, SnapshotCommand<A, U>> {
  return {
    initialState: null,
    evolve: rules.evolve,
    decide(command, state) {
      if (command.kind === 'add') return state ? [] : rules.add(command as A);
      if (state === null) throw rules.notFound();
      return rules.update(state, command as U);
    },
  };
}

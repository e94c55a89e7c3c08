import { describe, expect, it } from 'vitest';
import { badRequest, CONFLICT_MESSAGE, ConcurrencyError } from '../errors';
import { given, history } from '../testing/decider';
import { type Decider, handleCommand } from './command';
import type { EventEnvelope, EventStore } from './types';

/** A counter: add n; refuses to go above 10. */
const counter: Decider<number, { add: number }> = {
  initialState: 0,
  evolve: (total, event) => total + (event.data as { n: number }).n,
  decide: (command, total) => {
    if (total + command.add > 10) throw badRequest('Too many');
    return command.add === 0 ? [] : [{ type: 'Added', data: { n: command.add } }];
  },
};

/** An event store of one process in memory; `raceFirst` other appends land between a read and its append. */
function memoryStore(raceFirst = 0) {
  const streams = new Map<string, EventEnvelope[]>();
  let races = raceFirst;
  const store: Pick<EventStore, 'readStream' | 'append'> & { appends: number; reads: number } = {
    appends: 0,
    reads: 0,
    async readStream(stream) {
      store.reads += 1;
      return [...(streams.get(stream) ?? [])];
    },
    async append(stream, expectedVersion, events) {
      const current = streams.get(stream) ?? [];
      if (races > 0) {
        races -= 1;
        current.push(
          ...history([{ type: 'Added', data: { n: 1 } }], stream).map((e) => ({
            ...e,
            version: current.length + 1,
          })),
        );
        streams.set(stream, current);
      }
      if (current.length !== expectedVersion) throw new ConcurrencyError(stream, expectedVersion);
      store.appends += 1;
      const stored = events.map((e, i) => ({ ...history([e], stream)[0]!, version: current.length + i + 1 }));
      streams.set(stream, [...current, ...stored]);
      return stored;
    },
  };
  return store;
}

describe('handleCommand', () => {
  it('appends what the decider decides on the state its stream folds to, and returns the new state', async () => {
    const store = memoryStore();
    await handleCommand(store, 'counter-1', counter, { add: 3 });
    const result = await handleCommand(store, 'counter-1', counter, { add: 4 });
    expect(result.state).toBe(7);
    expect(result.version).toBe(2);
    expect(result.events.map((e) => e.data)).toEqual([{ n: 4 }]);
  });

  it('records nothing when the decision changes nothing', async () => {
    const store = memoryStore();
    const result = await handleCommand(store, 'counter-1', counter, { add: 0 });
    expect(result).toEqual({ state: 0, events: [], version: 0 });
    expect(store.appends).toBe(0);
  });

  it('decides again after a lost race, on the state the other request left', async () => {
    const store = memoryStore(2);
    const result = await handleCommand(store, 'counter-1', counter, { add: 5 });
    expect(store.reads).toBe(3);
    expect(result.state).toBe(7);
  });

  it('gives up after its retries with a 409 that names no stream or version', async () => {
    const store = memoryStore(100);
    const failed: ConcurrencyError = await handleCommand(
      store,
      'user-65f0c2aa',
      counter,
      { add: 1 },
      { retries: 2 },
    ).then(
      () => expect.fail('the command got through'),
      (err: unknown) => err as ConcurrencyError,
    );
    expect(store.reads).toBe(3);
    expect(failed.httpStatus).toBe(409);
    expect(failed.message).toBe(CONFLICT_MESSAGE);
    expect(failed.message).not.toMatch(/user-65f0c2aa/);
    expect(failed.stream).toBe('user-65f0c2aa');
  });

  it('never repeats a command that was refused for another reason, and records nothing', async () => {
    const store = memoryStore();
    await expect(handleCommand(store, 'counter-1', counter, { add: 11 })).rejects.toThrow('Too many');
    expect(store.reads).toBe(1);
    expect(store.appends).toBe(0);
  });
});

describe('given / when / then', () => {
  it('decides on the state the given events fold to', async () => {
    expect(await given(counter, [{ type: 'Added', data: { n: 9 } }]).when({ add: 1 })).toEqual([
      { type: 'Added', data: { n: 1 } },
    ]);
    await expect(given(counter, [{ type: 'Added', data: { n: 9 } }]).when({ add: 2 })).rejects.toThrow(
      'Too many',
    );
  });
});

/**
 * Runs tasks with the same key one after another in this process, in call order; tasks of different keys run at
 * the same time. A task runs whether the one before it resolved or threw. One promise chain per key, dropped when the
 * key goes idle. Used by createConsumer's serializeBy and billing's per-user payment calls.
 */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

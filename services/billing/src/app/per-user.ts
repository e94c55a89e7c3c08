/**
 * Runs tasks with the same key one after another (in this process): a double-clicked cancel must not cancel and
 * refund twice at the provider. Across processes, the event store's expected versions still refuse a second write.
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

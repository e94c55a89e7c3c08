/**
 * Runs tasks with the same key one after another (in this process), so a double-clicked checkout or cancel does its
 * provider calls once. It is a courtesy, not the guard of money: across pods, the refund ledger (./refunds, unique
 * per payment) makes a second refund impossible, and the event store's expected versions refuse a second write.
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

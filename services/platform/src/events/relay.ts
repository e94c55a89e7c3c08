import type { Logger } from 'pino';
import { createLease, type Lease } from '../lease';
import { processMetrics } from '../metrics';
import type { DocumentStore } from '../store/types';
import {
  type CommitDoc,
  EVENTS,
  entriesOf,
  eventsOf,
  ORPHAN_MS,
  PENDING,
  type PendingDoc,
  type PendingEntry,
  pendingRange,
} from './commits';
import { backoffMs, createSerial } from './serial';
import { type BusMessage, type EventBus, type EventEnvelope, topicFor } from './types';

export interface Relay {
  /** Publishes what is pending, then keeps publishing on notify() and on a slow poll. */
  start(): void;
  /** Stops the background publishing, waits for a publish in progress and releases the lease. */
  stop(): Promise<void>;
  /** True while this relay holds the service's relay lease (the one relay that publishes). */
  isLeader(): boolean;
  /**
   * Publishes everything pending now when this relay holds (or can take) the lease; resolves 0 without publishing
   * when another relay holds it. Rejects if the bus refuses (the commits stay pending).
   */
  flush(): Promise<number>;
  /** Wakes the relay (the event store calls it after each append). */
  notify(): void;
}

export interface RelayOptions {
  /** The service's document store (the one its event store writes to). */
  store: DocumentStore;
  /**
   * When given, every append wakes the relay, and the relay publishes the commits this process just appended from
   * memory (as inserted) instead of reading them back.
   */
  eventStore?: { onAppend(listener: (commit: { doc?: CommitDoc }) => void): () => void };
  bus: EventBus;
  service: string;
  log: Logger;
  /** Fallback poll interval (ms) for commits written by another process or missed notifications. */
  pollMs?: number;
  /** Commits per bus publish. */
  batchSize?: number;
  /** Backoff after a failed publish: starts at retryBaseMs, doubles, capped at retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /**
   * The relay lease's time to live (ms; default 10 s): of all the relays on one store (a Deployment's replicas), only
   * the lease's holder publishes; when it dies without releasing, another takes over within this time plus pollMs.
   */
  leaseMs?: number;
  /** The lease holder's id (default host:pid:random); tests name their relays. */
  holder?: string;
  /** For tests: the clock of lease expiry (epoch ms). */
  clock?: () => number;
}

/** Commits kept by the relay between their append and their publish (see `appended`). */
const APPENDED_KEPT = 5_000;

/** Events the bus refused for good, by event id (see setAside in createRelay). */
export const RELAY_REFUSED = 'relay_refused';
interface RefusedEventDoc {
  _id: string;
  topic: string;
  key: string;
  bytes: number;
  error: string;
  at: string;
}

/** The lease document's _id in the service's store. */
export const RELAY_LEASE = 'relay';

export const toBusMessage = (topic: string, event: EventEnvelope): BusMessage => ({
  topic,
  key: event.stream,
  value: JSON.stringify(event),
  headers: {
    'event-id': event.id,
    'event-type': event.type,
    ...(event.meta.requestId ? { 'request-id': event.meta.requestId } : {}),
    ...(event.meta.traceparent ? { traceparent: event.meta.traceparent } : {}),
  },
});

/**
 * The outbox relay: the event store is the outbox. Publishes commits with published:false in commit
 * (seq) order, one bus message per event keyed by stream, then marks them published. At least once: a
 * crash between the publish and the mark publishes those commits again; consumers deduplicate by event id.
 *
 * With several replicas on one store, only the holder of the store's relay lease (../lease) publishes, so the
 * commits of a stream go out in order from one process; a relay that dies without releasing is replaced after the
 * lease expires, and its successor publishes whatever is still unmarked (at least once, in commit order).
 */
export function createRelay(opts: RelayOptions): Relay {
  const { bus, log } = opts;
  const topic = topicFor(opts.service);
  const events = opts.store.collection<CommitDoc>(EVENTS);
  const pending = opts.store.collection<PendingDoc>(PENDING);
  const refusedEvents = opts.store.collection<RefusedEventDoc>(RELAY_REFUSED);
  const pollMs = opts.pollMs ?? 1_000;
  const batchSize = opts.batchSize ?? 100;
  const retryBaseMs = opts.retryBaseMs ?? 200;
  const retryMaxMs = opts.retryMaxMs ?? 5_000;
  const serial = createSerial();
  const lease: Lease = createLease({
    store: opts.store,
    name: RELAY_LEASE,
    ttlMs: opts.leaseMs ?? 10_000,
    ...(opts.holder ? { holder: opts.holder } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const clock = opts.clock ?? Date.now;
  /**
   * Commits this process appended (durable: the event store calls its listeners after the commit) and the relay has
   * not published yet, by _id, as inserted: a pending row's commit found here is not read back from the store. At most
   * APPENDED_KEPT (the oldest forgotten: read back from the store when its row comes up).
   */
  const appended = new Map<string, CommitDoc>();
  /** When a relay that does not hold the lease last tried to take it: it tries at most once per poll interval. */
  let lastTry = Number.NEGATIVE_INFINITY;
  let leader = false;

  /** Holds the lease for the next page: renews it when due, tries to take it when not held. */
  const holdLease = async (): Promise<boolean> => {
    if (lease.held() && !lease.dueForRenewal()) return true;
    if (!lease.held() && clock() - lastTry < pollMs) return false;
    lastTry = clock();
    const held = await lease.acquire();
    if (held !== leader) {
      leader = held;
      log.info({ topic, holder: lease.holder }, held ? 'relay: took the lease' : 'relay: lost the lease');
    }
    return held;
  };

  /**
   * Publishes pages of pending commits (their `pub` rows in `events_pending`, in seq order) until none is left, while
   * it holds the lease, and deletes the rows of what the bus accepted. Never runs twice at once in a process; across
   * processes, the lease admits one relay. A row whose commit is not there with its seq is an orphan (see PendingDoc):
   * deleted when its commit clashed; when its commit is missing, skipped (its insert may be under way: a later commit
   * of its stream cannot exist before it) and deleted after ORPHAN_MS. A row of several commits (appended together)
   * is published whole; when some of its commits are missing (and young), the others are published and the row is
   * written again naming the missing ones only.
   */
  const publishPending = () =>
    serial(async () => {
      let published = 0;
      let after: string | undefined;
      for (;;) {
        if (!(await holdLease())) return published;
        const rows = await pending.find(pendingRange('pub', after), { sort: { _id: 1 }, limit: batchSize });
        if (rows.length === 0) return published;
        // The page: rows in order until they stand for batchSize commits (a row of commits appended together is
        // taken whole).
        const page: PendingDoc[] = [];
        let commits = 0;
        for (const row of rows) {
          if (commits >= batchSize) break;
          page.push(row);
          commits += entriesOf(row).length;
        }
        after = (page[page.length - 1] as PendingDoc)._id;
        const found = new Map<string, CommitDoc>();
        const missing: string[] = [];
        for (const row of page)
          for (const { commit } of entriesOf(row)) {
            const kept = appended.get(commit);
            if (kept) found.set(commit, kept);
            else missing.push(commit);
          }
        if (missing.length > 0)
          for (const c of await events.find({ _id: { $in: missing } })) found.set(c._id, c);
        const now = Date.now();
        const messages: BusMessage[] = [];
        const done: string[] = [];
        /** Rows of several commits some of which are missing: they are written again with those only. */
        const narrowed: PendingDoc[] = [];
        for (const row of page) {
          const waiting: PendingEntry[] = [];
          for (const entry of entriesOf(row)) {
            const commit = found.get(entry.commit);
            if (commit?.seq === entry.seq)
              for (const event of eventsOf(commit)) messages.push(toBusMessage(topic, event));
            else if (!commit && now - row.at <= ORPHAN_MS) waiting.push(entry);
          }
          if (waiting.length === 0) done.push(row._id);
          else if (row.commits && waiting.length < row.commits.length)
            narrowed.push({ ...row, commits: waiting });
        }
        if (messages.length > 0) {
          const result = await bus.publish(messages);
          for (const { message, error } of result?.refused ?? []) await setAside(message, error);
        }
        for (const row of narrowed) await pending.replaceOne({ _id: row._id }, row);
        if (done.length > 0) await pending.deleteMany({ _id: { $in: done } });
        for (const row of page) for (const { commit } of entriesOf(row)) appended.delete(commit);
        published += messages.length;
        log.debug({ topic, commits, events: messages.length }, 'relay published');
        // A short page was the last: commits appended meanwhile notified the relay, which runs again for them.
        if (rows.length < batchSize && page.length === rows.length) return published;
      }
    });

  /**
   * An event the bus refused for good (too large for the topic): kept with the bus's reason in `relay_refused`,
   * logged and counted (nudge_relay_refused_events_total), so the events behind it go on. It stays in the event
   * store; once the cause is fixed (the topic's max.message.bytes raised), a replay from there publishes it.
   */
  const setAside = async (message: BusMessage, error: string) => {
    const eventId = message.headers['event-id'] ?? `${message.key}:${clock()}`;
    await refusedEvents.replaceOne(
      { _id: eventId },
      {
        _id: eventId,
        topic,
        key: message.key,
        bytes: Buffer.byteLength(message.value),
        error,
        at: new Date(clock()).toISOString(),
      },
      { upsert: true },
    );
    processMetrics().relayRefused.inc({ service: opts.service });
    log.error(
      { topic, eventId, key: message.key, error },
      'relay: the bus refused an event for good; set aside in relay_refused',
    );
  };

  let started = false;
  let running: Promise<void> | undefined;
  let again = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  const kick = (): void => {
    if (!started || retryTimer) return; // while backing off, the retry timer decides when to try again
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await publishPending();
          if (attempt > 0) log.info({ topic, attempts: attempt }, 'relay: the bus accepts events again');
          attempt = 0;
        } catch (err) {
          attempt += 1;
          const wait = backoffMs(attempt, retryBaseMs, retryMaxMs);
          log.warn({ err, topic, attempt, retryInMs: wait }, 'relay: publishing failed; events stay pending');
          if (started) {
            retryTimer = setTimeout(() => {
              retryTimer = undefined;
              kick();
            }, wait);
            retryTimer.unref();
          }
          return;
        }
      } while (again && started);
    })().finally(() => {
      running = undefined;
      if (again && started) kick(); // a notify that arrived while the loop was finishing
    });
  };

  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe = opts.eventStore?.onAppend(({ doc }) => {
        if (doc) {
          appended.set(doc._id, doc);
          if (appended.size > APPENDED_KEPT) appended.delete(appended.keys().next().value as string);
        }
        kick();
      });
      pollTimer = setInterval(kick, pollMs);
      pollTimer.unref();
      kick();
    },
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = undefined;
      appended.clear();
      if (pollTimer) clearInterval(pollTimer);
      if (retryTimer) clearTimeout(retryTimer);
      pollTimer = undefined;
      retryTimer = undefined;
      await running;
      await serial(async () => {
        leader = false;
        await lease
          .release()
          .catch((err: unknown) =>
            log.warn({ err, topic }, 'relay: could not release the lease; it expires'),
          );
      });
    },
    isLeader: () => lease.held(),
    flush: () => {
      lastTry = Number.NEGATIVE_INFINITY; // an explicit flush tries to take the lease now
      return publishPending();
    },
    notify: kick,
  };
}

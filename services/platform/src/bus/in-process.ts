import type { Logger } from 'pino';
import { DuplicateKeyError } from '../errors';
import { backoffMs, createSerial } from '../events/serial';
import type {
  BatchHandler,
  BatchOptions,
  BusMessage,
  DeadLetter,
  EventBus,
  MessageHandler,
  Subscription,
} from '../events/types';
import { createLogger } from '../logger';
import type { DocumentStore } from '../store/types';
import {
  attempt,
  errorText,
  forGroup,
  REPLAY_GROUP_HEADER,
  type RetryHooks,
  retryPolicy,
  splitBatch,
} from './dead-letter';
import { assertWireMessage } from './serialise';

export interface InProcessBusOptions {
  store: DocumentStore;
  /** Fallback poll interval (ms); publishes in this process wake subscribers at once. */
  pollMs?: number;
  /** Backoff after a throwing handler: starts at retryBaseMs, doubles, capped at retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Attempts of a message (or batch) before it is dead-lettered (default 8). */
  maxAttempts?: number;
  /**
   * Per-message subscriptions: how many keys of a page are handled at the same time (default 32). Messages of one
   * key are handled one after another in offset order (one lane per key); 1 handles the page one message at a time.
   */
  lanes?: number;
  /**
   * How long a message stays in the log once every consumer group of its topic has committed past it (ms,
   * default 60 s); then it is deleted (see trimBusLog), so the log stays proportional to unconsumed traffic.
   */
  logRetentionMs?: number;
  /** At most one trim per this long, run on the consumers' own traffic (no timer). Default 30 s. */
  trimEveryMs?: number;
  /** For tests: the bus's clock (trimming). */
  clock?: () => Date;
  log?: Logger;
}

export const DEFAULT_LOG_RETENTION_MS = 60_000;
export const DEFAULT_LANES = 32;

export const BUS_LOG = 'bus_log';
export const BUS_OFFSETS = 'bus_offsets';
export const BUS_META = 'bus_meta';
export const BUS_DEAD_LETTERS = 'bus_dead_letters';

/** One message of the log, as the consumers and the recent messages (StoreShared.recent) hold it. */
type LogDoc = {
  topic: string;
  offset: number;
  key: string;
  value: string;
  headers: string;
  publishedAt: string;
};
/**
 * A row of `bus_log`: the messages of one publish to one topic, at the offsets `first`..`offset` (`_id`:
 * `<topic>:<first>`), each as [key, value, headers' JSON]. `offset` is the row's last offset: the index `{topic, offset, publishedAt}` finds a consumer's next rows and the trim the
 * rows every group consumed whole.
 */
type LogRow = {
  _id: string;
  topic: string;
  offset: number;
  publishedAt: string;
  first: number;
  messages: Array<[key: string, value: string, headers: string]>;
};

/**
 * Messages per `bus_log` row at most (a publish of more takes several rows, inserted together): a page's worth, so a
 * consumer that reads the log (behind what is kept in memory) parses about the rows of its page.
 */
export const ROW_MESSAGES = 100;
/** Characters of values per `bus_log` row at most (beyond, the next message starts a new row; MongoDB's 16 MB). */
const ROW_CHARS = 1 << 20;

/** The messages of a row, in offset order. */
const messagesOf = (row: LogRow): LogDoc[] => {
  const { topic, publishedAt, first } = row;
  return row.messages.map(([key, value, headers], i) => ({
    topic,
    offset: first + i,
    key,
    value,
    headers,
    publishedAt,
  }));
};

/** The rows of a publish's messages to one topic (consecutive offsets). */
function rowsOf(docs: LogDoc[]): LogRow[] {
  const rows: LogRow[] = [];
  for (let start = 0; start < docs.length; ) {
    let end = start;
    let chars = 0;
    while (end < docs.length && end - start < ROW_MESSAGES) {
      const doc = docs[end] as LogDoc;
      chars += doc.value.length + doc.headers.length + doc.key.length;
      if (end > start && chars > ROW_CHARS) break;
      end += 1;
    }
    const first = docs[start] as LogDoc;
    const last = docs[end - 1] as LogDoc;
    rows.push({
      _id: `${first.topic}:${first.offset}`,
      topic: first.topic,
      offset: last.offset,
      publishedAt: first.publishedAt,
      first: first.offset,
      messages: docs.slice(start, end).map((d) => [d.key, d.value, d.headers]),
    });
    start = end;
  }
  return rows;
}
type OffsetDoc = { _id: string; groupId: string; topic: string; offset: number };
type CounterDoc = { _id: string; value: number };
type DeadDoc = {
  _id: string;
  groupId: string;
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: string;
  headers: string;
  error: string;
  attempts: number;
  firstFailedAt: string;
  deadAt: string;
};

const toDeadLetter = (doc: DeadDoc): DeadLetter => ({
  id: doc._id,
  groupId: doc.groupId,
  message: {
    topic: doc.topic,
    key: doc.key,
    value: doc.value,
    headers: JSON.parse(doc.headers) as Record<string, string>,
  },
  partition: doc.partition,
  offset: String(doc.offset),
  error: doc.error,
  attempts: doc.attempts,
  firstFailedAt: doc.firstFailedAt,
  deadAt: doc.deadAt,
});

type Member =
  | { handler: MessageHandler; batch?: undefined }
  | { handler?: undefined; batch: { handler: BatchHandler; maxMessages: number; maxWaitMs: number } };

const toMessage = (doc: LogDoc): BusMessage => ({
  topic: doc.topic,
  key: doc.key,
  value: doc.value,
  headers: JSON.parse(doc.headers) as Record<string, string>,
});

const PAGE = 100;

/**
 * Shared by every bus instance on the same store object (e.g. one per service in the standalone process):
 * publishes are serialised per store, and a publish wakes the subscribers of every instance.
 */
type StoreShared = {
  serialPublish: ReturnType<typeof createSerial>;
  wakers: Set<(topics: Set<string>) => void>;
  /** When the last trim of this store's log started (one trim at a time across the store's bus instances). */
  lastTrim: number;
  trimming: boolean;
  /** The topic whose offsets are counted but whose messages are not inserted yet (a publish in progress). */
  publishing: Set<string>;
  /**
   * Per topic, the last offset whose publish is committed (counter and messages), as this process's publishes left
   * it: a consumer reads its page up to there, and the counter only once per poll interval (see Delivery.after).
   */
  heads: Map<string, number>;
  /**
   * Per topic, the last messages this process's publishes committed, in offset order without gaps (at most
   * RECENT_KEPT): a consumer that keeps up reads its page from here instead of the log (each group of the topic
   * would read and parse the same rows again). A page not wholly here is read from the log.
   */
  recent: Map<string, LogDoc[]>;
};
/** Messages kept per topic in StoreShared.recent. */
export const RECENT_KEPT = 2_000;
const sharedByStore = new WeakMap<DocumentStore, StoreShared>();
const sharedFor = (store: DocumentStore): StoreShared => {
  let shared = sharedByStore.get(store);
  if (!shared) {
    shared = {
      serialPublish: createSerial(),
      wakers: new Set(),
      lastTrim: Date.now(),
      trimming: false,
      publishing: new Set(),
      heads: new Map(),
      recent: new Map(),
    };
    sharedByStore.set(store, shared);
  }
  return shared;
};

/**
 * Deletes the log's rows whose messages every consumer group of their topic has committed past (a row goes whole,
 * once its last offset is consumed) and that were published before `now - retentionMs`. Every group that ever
 * subscribed has a position in `bus_offsets` (written when it first subscribes, at 0), so a group that has not
 * consumed a message keeps its row; a topic no group reads keeps its messages. Dead letters live in their own
 * collection and are not affected. Returns the number of rows deleted.
 */
export async function trimBusLog(
  store: DocumentStore,
  opts: { retentionMs: number; now?: Date },
): Promise<number> {
  const positions = await store.collection<OffsetDoc>(BUS_OFFSETS).find({});
  const lowest = new Map<string, number>();
  for (const { topic, offset } of positions) lowest.set(topic, Math.min(offset, lowest.get(topic) ?? offset));
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.retentionMs).toISOString();
  const messages = store.collection<LogRow>(BUS_LOG);
  let deleted = 0;
  for (const [topic, offset] of lowest) {
    if (offset <= 0) continue;
    const result = await messages.deleteMany({
      topic,
      offset: { $lte: offset },
      publishedAt: { $lt: cutoff },
    });
    deleted += result.deletedCount;
  }
  return deleted;
}

const hashKey = (key: string): number => {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return Math.abs(h);
};

/**
 * The embedded event bus: a durable log on the document store, with Kafka's semantics where they matter.
 * - publish appends to `bus_log` with a per-topic offset (counter in `bus_meta`) and wakes subscribers.
 * - A group's position per topic is in `bus_offsets` (`${groupId}:${topic}`); a new group starts at the
 *   beginning. A page (up to 100 messages) is delivered by key: one message at a time per key, in offset order,
 *   up to `lanes` keys at once (deliverPage). The offset is committed once per page, for the prefix of the page
 *   whose handlers all resolved (or whose messages were dead-lettered), and before a throwing handler gets its
 *   message again after a backoff. Several members of one group share the messages (by key), each message goes to
 *   one of them.
 * - Values are strings and headers string -> string (checked at publish), exactly like the Kafka adapter.
 * Meant for one process per store (the embedded topology): publishes are serialised in this process (per
 * store object, across bus instances) so offsets become visible in order.
 */
export function createInProcessBus(opts: InProcessBusOptions): EventBus {
  const { store } = opts;
  const log = opts.log ?? createLogger('bus.in-process');
  const pollMs = opts.pollMs ?? 1_000;
  const policy = retryPolicy(opts);
  const { baseMs: retryBaseMs, maxMs: retryMaxMs } = policy;
  const messages = store.collection<LogRow>(BUS_LOG);
  const offsets = store.collection<OffsetDoc>(BUS_OFFSETS);
  const counters = store.collection<CounterDoc>(BUS_META);
  const dead = store.collection<DeadDoc>(BUS_DEAD_LETTERS);
  const shared = sharedFor(store);
  const logRetentionMs = Math.max(0, opts.logRetentionMs ?? DEFAULT_LOG_RETENTION_MS);
  const trimEveryMs = Math.max(0, opts.trimEveryMs ?? 30_000);
  const clock = opts.clock ?? (() => new Date());
  const lanes = Math.max(1, Math.floor(opts.lanes ?? DEFAULT_LANES));
  const deliveries = new Map<string, Delivery>();

  /** Trims the log at most once per trimEveryMs per store, after a group committed (on traffic, no timer). */
  const maybeTrim = (): void => {
    const now = clock();
    if (shared.trimming || now.getTime() - shared.lastTrim < trimEveryMs) return;
    shared.trimming = true;
    shared.lastTrim = now.getTime();
    void trimBusLog(store, { retentionMs: logRetentionMs, now })
      .then((deletedCount) => {
        if (deletedCount > 0) log.debug({ deletedCount }, 'in-process bus: trimmed consumed messages');
      })
      .catch((err: unknown) => log.warn({ err }, 'in-process bus: trimming the log failed; retried later'))
      .finally(() => {
        shared.trimming = false;
      });
  };
  /** Appends a publish's committed messages to the topic's recent ones (restarted at a gap), keeping the newest. */
  const keepRecent = (topic: string, docs: LogDoc[]): void => {
    const first = docs[0];
    if (!first) return;
    let kept = shared.recent.get(topic);
    if (!kept || kept[kept.length - 1]?.offset !== first.offset - 1) {
      kept = [];
      shared.recent.set(topic, kept);
    }
    kept.push(...docs.slice(-RECENT_KEPT));
    if (kept.length > RECENT_KEPT) kept.splice(0, kept.length - RECENT_KEPT);
  };
  /** The `count` messages after offset `after`, if they are all among the topic's recent ones. */
  const fromRecent = (topic: string, after: number, count: number): LogDoc[] | null => {
    const kept = shared.recent.get(topic);
    const start = kept?.[0]?.offset;
    if (!kept || start === undefined || after + 1 < start || after + count > start + kept.length - 1)
      return null;
    return kept.slice(after + 1 - start, after + 1 - start + count);
  };
  const wakeTopics = (topics: Set<string>) => {
    for (const delivery of deliveries.values()) if (topics.has(delivery.topic)) delivery.wake();
  };
  shared.wakers.add(wakeTopics);
  let closed = false;

  let indexes: Promise<void> | undefined;
  const ready = () => {
    // `_id` (`<topic>:<first>`) keeps a message once: no unique index on the same pair (a lookup per message).
    indexes ??= messages.createIndex({ topic: 1, offset: 1, publishedAt: 1 }).catch((err: unknown) => {
      indexes = undefined;
      throw err;
    });
    return indexes;
  };

  class Delivery {
    readonly id: string;
    readonly members: Member[] = [];
    private stopped = false;
    private wakePending = false;
    private wakeUp: (() => void) | undefined;
    private readonly done: Promise<void>;

    constructor(
      readonly groupId: string,
      readonly topic: string,
    ) {
      this.id = `${groupId}:${topic}`;
      this.done = this.run();
    }

    wake() {
      this.wakePending = true;
      this.wakeUp?.();
    }

    async stop() {
      this.stopped = true;
      this.wakeUp?.();
      await this.done;
    }

    /** Sleeps ms; a publish (when wakeable) or stop ends the sleep early. */
    private sleep(ms: number, wakeable: boolean): Promise<void> {
      if (this.stopped || (wakeable && this.wakePending)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          resolve();
        }
        this.wakeUp = () => {
          if (wakeable || this.stopped) finish();
        };
      }).finally(() => {
        this.wakeUp = undefined;
      });
    }

    /**
     * Up to `limit` messages of the topic after offset `after`, in offset order. The topic's head says how far the
     * offsets go: the one this process's publishes committed (StoreShared.heads), and the counter in `bus_meta` at
     * most once per poll interval (a topic this process has not published to, or a publish from elsewhere), so a
     * page under load costs no counter read. A page not among the recent messages is read from the rows whose last
     * offset is past `after` (the `{topic, offset}` index, however long the other topics' logs are); offsets a
     * failed publish left out are no row, and skipped.
     */
    private async after(after: number, limit: number): Promise<LogDoc[]> {
      let head = shared.heads.get(this.topic);
      if (head === undefined || Date.now() - this.counterReadAt >= pollMs) {
        this.counterReadAt = Date.now();
        const counted = (await counters.findOne({ _id: `offset:${this.topic}` }))?.value ?? 0;
        head = Math.max(shared.heads.get(this.topic) ?? 0, counted);
      }
      this.head = head;
      if (head <= after) return [];
      const cached = fromRecent(this.topic, after, Math.min(limit, head - after));
      if (cached) return cached;
      // The rows holding the next offsets (a row's `offset` is its last), a few at a time until the page is full. A
      // gap (offsets a failed publish counted and never inserted) is no row: the next row's messages follow.
      const page: LogDoc[] = [];
      const rowsRead = Math.ceil(limit / ROW_MESSAGES) + 1;
      let from = after;
      for (;;) {
        const rows = await messages.find(
          { topic: this.topic, offset: { $gt: from } },
          { sort: { offset: 1 }, limit: rowsRead },
        );
        for (const row of rows)
          for (const doc of messagesOf(row)) if (doc.offset > after && page.length < limit) page.push(doc);
        if (rows.length < rowsRead || page.length >= limit) return page;
        from = (rows[rows.length - 1] as LogRow).offset;
      }
    }

    private pick(key: string): Member | undefined {
      if (this.members.length === 0) return undefined;
      return this.members[hashKey(key) % this.members.length];
    }

    private async run(): Promise<void> {
      let storeFailures = 0;
      while (!this.stopped) {
        try {
          if (this.committed === undefined) {
            // A group's position exists from its first subscription on, so trimming keeps what it has not read.
            const position = await offsets.findOneAndUpdate(
              { _id: this.id },
              { $setOnInsert: { groupId: this.groupId, topic: this.topic, offset: 0 } },
              { upsert: true },
            );
            this.committed = position?.offset ?? 0;
          }
          const committed: number = this.committed;
          this.wakePending = false;
          const page = await this.after(committed, PAGE);
          storeFailures = 0;
          if (page.length === 0) {
            await this.sleep(pollMs, true);
            continue;
          }
          const batching = this.members[0]?.batch;
          if (batching) {
            const batch = await this.fill(page, batching.maxMessages, batching.maxWaitMs);
            if (!(await this.deliverBatch(batch))) return;
            const last = batch[batch.length - 1] as LogDoc;
            await offsets.replaceOne(
              { _id: this.id },
              { _id: this.id, groupId: this.groupId, topic: this.topic, offset: last.offset },
              { upsert: true },
            );
            this.committed = last.offset;
            maybeTrim();
            continue;
          }
          // The page goes out by key (deliverPage); its offset is committed once, for the longest prefix of the page
          // whose messages were all delivered or dead-lettered: a crash or a stop delivers the rest again (at least
          // once; consumers deduplicate). A failing handler commits that prefix before its backoff (see
          // retryHooks), so a group stuck on one message keeps its position (for the trim and the lag).
          const whole = await this.deliverPage(page);
          await this.commitDelivered();
          if (!whole) continue; // stopped (the loop ends), or the rest of the page is read again
          maybeTrim();
          // Caught up with the head read for this page: sleep until a publish wakes us (or the poll), without reading
          // the head again first.
          if ((this.committed ?? 0) >= this.head && !this.wakePending) await this.sleep(pollMs, true);
        } catch (err) {
          if (this.stopped) return;
          storeFailures += 1;
          log.error(
            { err, groupId: this.groupId, topic: this.topic },
            'in-process bus: reading the log failed; retrying',
          );
          await this.sleep(backoffMs(storeFailures, retryBaseMs, retryMaxMs), false);
        }
      }
    }

    /** Reads on until maxMessages are pending or maxWaitMs has passed since the first one was seen. */
    private async fill(first: LogDoc[], maxMessages: number, maxWaitMs: number): Promise<LogDoc[]> {
      const batch = first.slice(0, maxMessages);
      const deadline = Date.now() + maxWaitMs;
      while (batch.length < maxMessages && !this.stopped) {
        const after = (batch[batch.length - 1] as LogDoc).offset;
        const more = await this.after(after, Math.min(maxMessages - batch.length, 5_000));
        batch.push(...more);
        if (more.length > 0) continue;
        const left = deadline - Date.now();
        if (left <= 0) break;
        this.wakePending = false;
        await this.sleep(left, true);
      }
      return batch;
    }

    /** The topic's head offset as last read (see after). */
    private head = 0;

    /** When `after` last read the topic's counter (epoch ms). */
    private counterReadAt = Number.NEGATIVE_INFINITY;

    /** The group's committed position on the topic (undefined until read from bus_offsets). */
    private committed: number | undefined;

    /**
     * The offset of the page's delivered prefix (every message of the page up to it delivered or dead-lettered),
     * when it is past the committed position.
     */
    private uncommitted: number | undefined;

    /** Commits run one at a time (lanes in backoff and the page's end may ask together), so the position only grows. */
    private readonly serialCommit = createSerial();

    /** Commits the position of the page's delivered prefix, if it moved. */
    private commitDelivered(): Promise<void> {
      return this.serialCommit(async () => {
        const offset = this.uncommitted;
        if (offset === undefined || offset <= (this.committed ?? 0)) return;
        await offsets.replaceOne(
          { _id: this.id },
          { _id: this.id, groupId: this.groupId, topic: this.topic, offset },
          { upsert: true },
        );
        this.committed = offset;
        if (this.uncommitted === offset) this.uncommitted = undefined;
      });
    }

    /**
     * Delivers a page by key: one lane per key hands its messages to the handler one after another, in offset
     * order; up to `lanes` keys run at the same time, so the store calls of different keys' handlers land in the same
     * event-loop turns and share the store's commits. A lane whose handler fails retries it (backoff, then the dead
     * letter) before its key's next message; the other keys go on meanwhile. `uncommitted` follows the page's
     * delivered prefix. Resolves true once every message of the page was delivered or dead-lettered, false when the
     * subscription stopped first (no lane takes a further message); a store failure in a lane stops the others from
     * taking more, and is thrown once every lane has ended (so no message is ever in two handlers at once).
     */
    private async deliverPage(page: LogDoc[]): Promise<boolean> {
      const done = new Array<boolean>(page.length).fill(false);
      let prefix = 0;
      let halted = false;
      let failure: { error: unknown } | undefined;
      const queues = new Map<string, number[]>();
      const running = new Set<Promise<void>>();
      const lane = async (key: string, queue: number[]): Promise<void> => {
        try {
          for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
            const doc = page[index] as LogDoc;
            if (halted || !(await this.deliver(doc))) {
              halted = true;
              return;
            }
            done[index] = true;
            while (prefix < page.length && done[prefix]) {
              this.uncommitted = (page[prefix] as LogDoc).offset;
              prefix += 1;
            }
          }
        } catch (error) {
          failure ??= { error };
          halted = true;
        } finally {
          // In the same turn as the last empty shift: the dispatcher cannot queue to a lane that has ended.
          queues.delete(key);
        }
      };
      for (let index = 0; index < page.length && !halted; index++) {
        const key = (page[index] as LogDoc).key;
        const queue = queues.get(key);
        if (queue) {
          queue.push(index);
          continue;
        }
        while (running.size >= lanes && !halted) await Promise.race(running);
        if (halted) break;
        const fresh = [index];
        queues.set(key, fresh);
        const started: Promise<void> = lane(key, fresh).finally(() => running.delete(started));
        running.add(started);
      }
      await Promise.all(running);
      if (failure) throw failure.error;
      return prefix === page.length;
    }

    private retryHooks(what: Record<string, unknown>, text: string): RetryHooks {
      return {
        sleep: async (ms) => {
          await this.commitDelivered();
          return this.sleep(ms, false);
        },
        stopped: () => this.stopped || this.members.length === 0,
        onRetry: (err, attempt, retryInMs) =>
          log.warn({ err, groupId: this.groupId, topic: this.topic, ...what, attempt, retryInMs }, text),
      };
    }

    /** Records the message in bus_dead_letters (before its offset is committed: a crash between only repeats it). */
    private async deadLetter(
      doc: LogDoc,
      message: BusMessage,
      error: unknown,
      attempts: number,
      firstFailedAt: string,
    ) {
      const id = `${this.groupId}:${doc.topic}:0:${doc.offset}`;
      await dead.replaceOne(
        { _id: id },
        {
          _id: id,
          groupId: this.groupId,
          topic: doc.topic,
          partition: 0,
          offset: doc.offset,
          key: doc.key,
          value: doc.value,
          headers: JSON.stringify(message.headers),
          error: errorText(error),
          attempts,
          firstFailedAt,
          deadAt: new Date().toISOString(),
        },
        { upsert: true },
      );
      log.error(
        { err: error, groupId: this.groupId, topic: doc.topic, offset: doc.offset, key: doc.key, attempts },
        'in-process bus: message dead-lettered after its last attempt; the group moves on',
      );
    }

    /**
     * Splits the batch between the members by key and delivers until every part resolves or the attempts run
     * out (then splitBatch dead-letters the messages that fail alone); false when stopped.
     */
    private async deliverBatch(docs: LogDoc[]): Promise<boolean> {
      const mine = docs.flatMap((doc) => {
        const message = forGroup(toMessage(doc), this.groupId);
        return message ? [{ doc, message }] : [];
      });
      if (mine.length === 0) return !this.stopped;
      type Item = (typeof mine)[number];
      const handle = async (items: Item[]) => {
        const parts = new Map<Member, BusMessage[]>();
        for (const { doc, message } of items) {
          const member = this.pick(doc.key);
          if (!member) throw new Error('in-process bus: the group has no members left');
          const list = parts.get(member) ?? [];
          list.push(message);
          parts.set(member, list);
        }
        await Promise.all([...parts].map(([member, list]) => member.batch?.handler(list)));
      };
      const hooks = this.retryHooks(
        { size: mine.length },
        'in-process bus: batch handler failed; redelivering',
      );
      const result = await attempt(() => handle(mine), policy, hooks);
      if (!result) return false;
      if (result.ok) return true;
      const firstFailedAt = result.firstFailedAt;
      return splitBatch(
        mine,
        result.error,
        handle,
        (item, error) => this.deadLetter(item.doc, item.message, error, result.attempts, firstFailedAt),
        hooks.stopped,
      );
    }

    /** Hands the message to a member until one handler resolves or it is dead-lettered; false when stopped first. */
    private async deliver(doc: LogDoc): Promise<boolean> {
      const message = forGroup(toMessage(doc), this.groupId);
      if (!message) return !this.stopped;
      const hooks = this.retryHooks({ offset: doc.offset }, 'in-process bus: handler failed; redelivering');
      const result = await attempt(
        async () => {
          const member = this.pick(doc.key);
          if (!member?.handler) throw new Error('in-process bus: the group has no members left');
          await member.handler(message);
        },
        policy,
        hooks,
      );
      if (!result) return false;
      if (!result.ok)
        await this.deadLetter(doc, message, result.error, result.attempts, result.firstFailedAt);
      return true;
    }
  }

  /** Nothing is refused: a message that passes assertWireMessage is one the log takes. */
  const publish = async (batch: BusMessage[]): Promise<undefined> => {
    if (closed) throw new Error('in-process bus is closed');
    for (const message of batch) assertWireMessage(message);
    if (batch.length === 0) return undefined;
    await ready();
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of batch) {
      const list = byTopic.get(message.topic) ?? [];
      list.push(message);
      byTopic.set(message.topic, list);
    }
    await shared.serialPublish(async () => {
      const publishedAt = new Date().toISOString();
      for (const [topic, list] of byTopic) {
        shared.publishing.add(topic);
        try {
          const counter = await counters.findOneAndUpdate(
            { _id: `offset:${topic}` },
            { $inc: { value: list.length } },
            { upsert: true },
          );
          if (!counter || typeof counter.value !== 'number')
            throw new Error('in-process bus: the offset counter did not advance');
          const first = counter.value - list.length + 1;
          const docs: LogDoc[] = list.map((m, i) => ({
            topic,
            offset: first + i,
            key: m.key,
            value: m.value,
            headers: JSON.stringify(m.headers),
            publishedAt,
          }));
          try {
            // A row already holding one of these offsets (a log ahead of its counter) refuses the publish whole, as a
            // message's own `_id` did when each message was a row: no offset is used twice. Rows do not overlap.
            // The rows ending at or after `first`: none, unless another store object on the folder published since
            // (counted first: a few µs, where a sorted read of the next row cost 20).
            const after = { topic, offset: { $gte: first } };
            const later = (await messages.countDocuments(after)) > 0 ? await messages.find(after) : [];
            if (later.some((row) => row.first <= counter.value))
              throw new DuplicateKeyError(
                `E11000 duplicate key error collection: ${BUS_LOG} dup key: { topic: ${JSON.stringify(topic)}, offset: ${first} }`,
              );
            // One row for the publish's messages (ROW_MESSAGES at most): one insert, one index entry.
            const rows = rowsOf(docs);
            if (rows.length === 1) await messages.insertOne(rows[0] as LogRow);
            else await messages.insertMany(rows);
          } catch (err) {
            shared.recent.delete(topic); // the offsets counted for this publish may stay a gap
            throw err;
          }
          // Committed (the insert resolved after its commit); publishes are serialised, so the head only grows.
          shared.heads.set(topic, counter.value);
          keepRecent(topic, docs);
        } finally {
          shared.publishing.delete(topic);
        }
      }
    });
    const topics = new Set(byTopic.keys());
    for (const wake of shared.wakers) wake(topics);
    return undefined;
  };

  const join = async (groupId: string, topics: string[], member: Member): Promise<Subscription> => {
    if (closed) throw new Error('in-process bus is closed');
    if (typeof groupId !== 'string' || groupId === '')
      throw new TypeError('subscribe: groupId must be a non-empty string');
    await ready();
    const joined: Delivery[] = [];
    for (const topic of new Set(topics)) {
      const id = `${groupId}:${topic}`;
      let delivery = deliveries.get(id);
      if (delivery && Boolean(delivery.members[0]?.batch) !== Boolean(member.batch))
        throw new Error(
          `subscribe: group ${groupId} already subscribes ${member.batch ? 'per message' : 'per batch'}`,
        );
      if (!delivery) {
        delivery = new Delivery(groupId, topic);
        deliveries.set(id, delivery);
      }
      delivery.members.push(member);
      joined.push(delivery);
    }
    let left = false;
    return {
      async close() {
        if (left) return;
        left = true;
        const stopping: Promise<void>[] = [];
        for (const delivery of joined) {
          const index = delivery.members.indexOf(member);
          if (index >= 0) delivery.members.splice(index, 1);
          if (delivery.members.length === 0 && deliveries.get(delivery.id) === delivery) {
            deliveries.delete(delivery.id);
            stopping.push(delivery.stop());
          }
        }
        await Promise.all(stopping);
      },
    };
  };

  const subscribe = (groupId: string, topics: string[], handler: MessageHandler) =>
    join(groupId, topics, { handler });
  const subscribeBatch = (
    groupId: string,
    topics: string[],
    handler: BatchHandler,
    options: BatchOptions = {},
  ) =>
    join(groupId, topics, {
      batch: {
        handler,
        maxMessages: Math.max(1, options.maxMessages ?? 10_000),
        maxWaitMs: Math.max(0, options.maxWaitMs ?? 1_000),
      },
    });

  return {
    kind: 'inprocess',
    publish,
    subscribe,
    subscribeBatch,
    async deadLetters(groupId?: string) {
      const docs = await dead.find(groupId === undefined ? {} : { groupId }, {
        sort: { groupId: 1, deadAt: 1, offset: 1 },
      });
      return docs.map(toDeadLetter);
    },
    async replayDeadLetters(groupId?: string) {
      if (closed) throw new Error('in-process bus is closed');
      const docs = await dead.find(groupId === undefined ? {} : { groupId }, {
        sort: { groupId: 1, deadAt: 1, offset: 1 },
      });
      for (const doc of docs) {
        const letter = toDeadLetter(doc);
        await publish([
          { ...letter.message, headers: { ...letter.message.headers, [REPLAY_GROUP_HEADER]: doc.groupId } },
        ]);
        await dead.deleteOne({ _id: doc._id });
        log.info(
          { groupId: doc.groupId, topic: doc.topic, offset: doc.offset },
          'in-process bus: dead letter replayed',
        );
      }
      return docs.length;
    },
    async lag() {
      const [positions, heads] = await Promise.all([offsets.find({}), counters.find({})]);
      const head = new Map(heads.map((c) => [c._id, c.value]));
      return positions.map((p) => ({
        groupId: p.groupId,
        topic: p.topic,
        lag: Math.max(0, (head.get(`offset:${p.topic}`) ?? 0) - p.offset),
      }));
    },
    async ping() {
      if (closed) throw new Error('in-process bus is closed');
      await store.ping();
    },
    async close() {
      closed = true;
      shared.wakers.delete(wakeTopics);
      const all = [...deliveries.values()];
      deliveries.clear();
      await Promise.all(all.map((d) => d.stop()));
    },
  };
}

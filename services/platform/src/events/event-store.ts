import { checkEvent } from '@nudge/contracts';
import type { Logger } from 'pino';
import { currentContext, currentRequestId } from '../context';
import { ConcurrencyError, DuplicateKeyError } from '../errors';
import { newId } from '../ids';
import { createLogger } from '../logger';
import { type Keyring, keyringOf, sealPersonalFields } from '../privacy/keyring';
import type { Doc, DocumentStore } from '../store/types';
import { currentTraceparent } from '../tracing';
import {
  type CommitDoc,
  commitId,
  EVENTS,
  EVENTS_META,
  entriesOf,
  eventsOf,
  groupRowOf,
  ORPHAN_MS,
  openEvents,
  PENDING,
  type PendingDoc,
  pendingId,
  pendingOf,
  toStored,
} from './commits';
import { createProjectionRunner } from './projections';
import { backoffMs } from './serial';
import type {
  AppendManyEntry,
  AppendManyResult,
  AppendOptions,
  EventEnvelope,
  EventStore,
  NewEvent,
  Projection,
} from './types';

/** The event store a service composes: the port plus projections and the relay hook. */
export interface ServiceEventStore extends EventStore {
  readonly service: string;
  /** Registers a read model; append applies it from then on, catchUp/rebuild replay into it. */
  register(projection: Projection): void;
  /**
   * Applies every commit not yet projected (left by a crash or a failing projection), in commit order,
   * and builds projections that were never built (new read models). Call it at start. Returns the commits applied.
   */
  catchUp(): Promise<number>;
  /** Resets the projection (all when no name) and replays every event through it. */
  rebuild(projectionName?: string): Promise<void>;
  /**
   * Called after every successful append, once per commit, when it is durable (the relay's notify; `doc` is the commit
   * as inserted, so the relay need not read it back). Returns an unsubscribe function.
   */
  onAppend(listener: (commit: AppendedCommit) => void): () => void;
  /** Stops background projection retries (call at shutdown, before closing the store). */
  close(): void;
}

/** A commit as the append listeners see it (see ServiceEventStore.onAppend). */
export interface AppendedCommit {
  stream: string;
  seq: number;
  /** The commit document as inserted (never to be modified). */
  doc: CommitDoc;
}

export interface EventStoreOptions {
  store: DocumentStore;
  service: string;
  clock?: () => Date;
  log?: Logger;
  /** Commits per page when iterating readAll. */
  pageSize?: number;
  /**
   * Checks each event before it is appended; throws to refuse it. Default: the contract schemas (checkEvent of
   * services/contracts: an unknown type or invalid data is refused with an error naming the type and the field).
   * Only the event mechanism's own tests, whose event types are not in the contracts, pass another.
   */
  validate?: (type: string, data: unknown) => void;
  /** Seals events' personal fields on append and opens them on read. Default: the one bound to the store (keyringOf). */
  keyring?: Keyring;
}

type CounterDoc = Doc & { value: number };

/** Sequence numbers a counter advance reserves beyond what the waiting appends need (see reserveSeqs). */
const SEQ_BLOCK = 64;

/**
 * Event store on the document store: one document per commit in `events` (see commits.ts), a global
 * commit order from a counter in `events_meta` (advanced once for all the appends waiting meanwhile), projections
 * applied right after the insert. Each commit is written with its pending rows in `events_pending` (one for the
 * relay, one for the projections), which they delete when done: a commit document is written once and never
 * rewritten. appendMany writes many commits with one counter advance, one insertMany, one relay row for them all
 * and one projection pass.
 */
export function createEventStore(opts: EventStoreOptions): ServiceEventStore {
  const { store, service } = opts;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? createLogger(`${service}.events`);
  const pageSize = opts.pageSize ?? 200;
  const validate = opts.validate ?? checkEvent;
  const keyring = opts.keyring ?? keyringOf(store);
  const events = store.collection<CommitDoc>(EVENTS);
  const meta = store.collection<CounterDoc>(EVENTS_META);
  const pending = store.collection<PendingDoc>(PENDING);
  const listeners = new Set<(commit: AppendedCommit) => void>();

  let indexes: Promise<void> | undefined;
  const ready = () => {
    // A stream's commits are found by their `_id`s (streamCommits, headAt): no index on the stream (each append would
    // pay an entry in it, at a random place of the B-tree).
    indexes ??= seqIndex().catch((err: unknown) => {
      indexes = undefined;
      throw err;
    });
    return indexes;
  };

  /**
   * The index on `seq` (readAll's pages). Seqs are unique by construction (blocks of one counter, see reserveSeqs), and
   * MongoDB keeps the index unique as a guard. On the embedded store a unique index costs a lookup per insert (its
   * adapter checks MongoDB's semantics before each write) and guards nothing the counter does not: a plain index
   * there.
   */
  const seqIndex = (): Promise<void> =>
    events.createIndex({ seq: 1 }, store.kind === 'embedded' ? {} : { unique: true });

  /** Deletes pending rows of commits that were not written (best effort: a row left behind is an orphan). */
  const dropPending = async (rows: PendingDoc[]): Promise<void> => {
    if (rows.length === 0) return;
    await pending
      .deleteMany({ _id: { $in: rows.map((row) => row._id) } })
      .catch((err: unknown) => log.warn({ err }, 'could not delete the pending rows of refused commits'));
  };

  /** Writes (again) the pending rows of commits that are in: upserts. */
  const rewritePending = async (rows: PendingDoc[]): Promise<void> => {
    for (const row of rows) await pending.replaceOne({ _id: row._id }, row, { upsert: true });
  };

  /**
   * Writes the commits (insert: resolves to the seqs of those refused by a clash) with their pending rows, so that no
   * commit is ever durable without them. On the embedded store (groupCommit) all are issued at once and land in one
   * group commit; elsewhere (MongoDB) the rows are written first and the commits after: a crash in between leaves rows
   * whose commit does not exist (orphans, see PendingDoc), never a commit without rows. The rows of refused commits
   * are deleted. One `pub` row for all the commits (the relay publishes them together); one `proj` row for all when
   * `together` (the projections apply them together), else one per commit.
   */
  const writeCommits = async (
    commits: CommitDoc[],
    insert: () => Promise<Set<number>>,
    together = false,
  ): Promise<Set<number>> => {
    const at = Date.now();
    const rows = [
      groupRowOf(commits, 'pub', at),
      ...(together
        ? [groupRowOf(commits, 'proj', at)]
        : commits.map((commit) => pendingOf(commit, 'proj', at))),
    ];
    const writeRows = () => pending.insertMany(rows);
    /** The rows that stand for some commit that went in (a row whose commits were all refused is an orphan). */
    const rowsIn = (refused: Set<number>) =>
      rows.filter((row) => entriesOf(row).some((entry) => !refused.has(entry.seq)));
    let refused: Set<number>;
    if (store.groupCommit) {
      const [written, inserted] = await Promise.allSettled([writeRows(), insert()]);
      if (inserted.status === 'rejected') {
        if (inserted.reason instanceof DuplicateKeyError) await dropPending(rows);
        throw inserted.reason;
      }
      refused = inserted.value;
      // A row refused while its commit went in (rows never clash: seqs are unique): written again.
      if (written.status === 'rejected') await rewritePending(rowsIn(refused));
    } else {
      await writeRows();
      try {
        refused = await insert();
      } catch (err) {
        // A clash wrote nothing; after any other error the commit may be in: its rows stay.
        if (err instanceof DuplicateKeyError) await dropPending(rows);
        throw err;
      }
      // A commit that took so long that its rows may have been given up on as orphans: they are written again.
      if (Date.now() - at > ORPHAN_MS / 2) await rewritePending(rowsIn(refused));
    }
    // The rows of refused commits are deleted; a row that also stands for commits that went in is written again
    // without the refused ones (best effort: the relay and catch-up skip a commit found with another seq).
    if (refused.size > 0) {
      const kept = new Set(rowsIn(refused));
      await dropPending(rows.filter((row) => !kept.has(row)));
      for (const row of kept)
        if (row.commits)
          await pending
            .replaceOne({ _id: row._id }, { ...row, commits: row.commits.filter((e) => !refused.has(e.seq)) })
            .catch((err: unknown) =>
              log.warn({ err }, 'could not narrow the pending row of refused commits'),
            );
    }
    return refused;
  };

  /**
   * The commits of a stream, in no particular order: their `_id`s (`<stream>@<fromVersion>`) are the range from
   * `<stream>@` to `<stream>A` ('A' follows '@') of the primary key, which also holds any stream named `<stream>@...`:
   * the `stream` condition leaves those out.
   */
  const streamCommits = (stream: string, options: { sort?: { fromVersion: 1 } } = {}) =>
    events.find({ _id: { $gte: `${stream}@`, $lt: `${stream}A` }, stream }, options);

  /**
   * The stream's head check: the commit ending at expectedVersion (null for a new stream), or undefined when there is
   * none. The insert's unique _id (`<stream>@<expectedVersion>`) refuses a version that is taken (for 0: any existing
   * stream); what is left to refuse is a version no commit ends at (a future one). None for a new stream; else the
   * commit of one event before it, by `_id`, and only when that is not the one (a commit of several events) the
   * stream's commits.
   */
  const headAt = async (stream: string, expectedVersion: number): Promise<CommitDoc | null | undefined> => {
    if (expectedVersion === 0) return null;
    const single = await events.findOne({ _id: commitId(stream, expectedVersion - 1) });
    if (single?.toVersion === expectedVersion) return single;
    return (await streamCommits(stream)).find((c) => c.toVersion === expectedVersion);
  };

  /**
   * Sequence numbers, reserved in blocks: the counter in `events_meta` is advanced by SEQ_BLOCK (or more, for the
   * appends waiting meanwhile: one $inc for all of them) and the numbers are then handed out from memory, so an
   * append writes no counter in most commands (a block unused at a crash leaves a gap; seqs may have gaps).
   * Per-stream order: an append asks for a number above its stream's previous commit (`above`); when the block in
   * hand is not above it (another process on the store, with a later block, wrote that commit), the block is dropped
   * and the counter advanced, which is above every number handed out so far. Blocks never overlap (the counter is
   * the store's), so numbers stay unique across processes.
   */
  let block = { next: 1, end: 0 };
  let seqWaiting: Array<{
    count: number;
    above: number;
    resolve(first: number): void;
    reject(err: unknown): void;
  }> = [];
  let seqAdvancing = false;
  /** `count` numbers from the block in hand, if it holds them all above `above`. */
  const fromBlock = (count: number, above: number): number | undefined => {
    if (block.next <= above || block.end - block.next + 1 < count) return undefined;
    const first = block.next;
    block.next += count;
    return first;
  };
  const advanceSeq = async (): Promise<void> => {
    seqAdvancing = true;
    try {
      while (seqWaiting.length > 0) {
        const group = seqWaiting;
        seqWaiting = [];
        const total = group.reduce((n, w) => n + w.count, 0) + SEQ_BLOCK;
        try {
          const counter = await meta.findOneAndUpdate(
            { _id: 'seq' },
            { $inc: { value: total } },
            { upsert: true },
          );
          if (!counter || typeof counter.value !== 'number')
            throw new Error('event store: the commit counter did not advance');
          // The new block is above every number this process handed out, and above every waiter's `above` (each
          // previous commit took its number from an earlier advance of the same counter).
          block = { next: counter.value - total + 1, end: counter.value };
          for (const waiter of group) waiter.resolve(fromBlock(waiter.count, waiter.above) as number);
        } catch (err) {
          for (const waiter of group) waiter.reject(err);
        }
      }
    } finally {
      seqAdvancing = false;
    }
  };
  /**
   * The first of `count` fresh commit sequence numbers (the others follow it), all above `above` (the stream's
   * previous commit's): from the block in hand when it can, else after one counter advance.
   */
  const reserveSeqs = (count: number, above = 0): number | Promise<number> => {
    const first = seqWaiting.length === 0 ? fromBlock(count, above) : undefined;
    if (first !== undefined) return first;
    return new Promise<number>((resolve, reject) => {
      seqWaiting.push({ count, above, resolve, reject });
      if (!seqAdvancing) void advanceSeq();
    });
  };

  const readStream = async (stream: string): Promise<EventEnvelope[]> => {
    await ready();
    const commits = await streamCommits(stream, { sort: { fromVersion: 1 } });
    return openEvents(keyring, commits.flatMap(eventsOf));
  };

  async function* readAll(): AsyncIterable<EventEnvelope> {
    await ready();
    let afterSeq = 0;
    for (;;) {
      const page = await events.find({ seq: { $gt: afterSeq } }, { sort: { seq: 1 }, limit: pageSize });
      const opened = await openEvents(keyring, page.flatMap(eventsOf));
      yield* opened;
      if (page.length > 0) afterSeq = (page[page.length - 1] as CommitDoc).seq;
      if (page.length < pageSize) return;
    }
  }

  const runner = createProjectionRunner({ store, log, keyring, readStream, readAll: () => readAll() });

  // A projection that failed during append is retried in the background (and by the next start's catchUp).
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAttempt = 0;
  let closed = false;
  const scheduleRetry = () => {
    if (retryTimer || closed) return;
    retryAttempt += 1;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        runner.catchUp().then(
          () => {
            retryAttempt = 0;
          },
          (err: unknown) => {
            log.warn({ err, attempt: retryAttempt }, 'projection catch-up failed; retrying later');
            scheduleRetry();
          },
        );
      },
      backoffMs(retryAttempt, 1_000, 30_000),
    );
    retryTimer.unref();
  };

  /** Checks and serialises the events of one append (before anything is written: a refused one takes no seq). */
  const prepare = async (
    stream: string,
    expectedVersion: number,
    newEvents: NewEvent[],
  ): Promise<{ plain: unknown[]; sealed: unknown[] }> => {
    if (typeof stream !== 'string' || stream === '')
      throw new TypeError('append: stream must be a non-empty string');
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0) {
      throw new TypeError('append: expectedVersion must be an integer >= 0');
    }
    // Exactly what the bus will carry (JSON), so live state, rebuilds and consumers agree; checked against the
    // contracts before anything is written; personal fields sealed with their reader's key.
    const checked = newEvents.map((event) => {
      if (typeof event.type !== 'string' || event.type === '')
        throw new TypeError('append: every event needs a type');
      const data: unknown = JSON.parse(JSON.stringify(event.data ?? null));
      validate(event.type, data);
      return data;
    });
    const sealed = await Promise.all(
      checked.map((data, i) => sealPersonalFields(keyring, (newEvents[i] as NewEvent).type, data)),
    );
    return { plain: checked, sealed };
  };

  /** The commit document of one append at seq. */
  const buildCommit = (
    stream: string,
    expectedVersion: number,
    newEvents: NewEvent[],
    datas: { plain: unknown[]; sealed: unknown[] },
    seq: number,
    options: AppendOptions,
  ): { commit: CommitDoc; envelopes: EventEnvelope[] } => {
    const now = clock();
    const occurredAt = now.toISOString();
    const requestId = options.requestId ?? currentRequestId();
    const traceparent = currentTraceparent();
    const actor = options.actor !== undefined ? options.actor : (currentContext()?.actor ?? null);
    const envelopes: EventEnvelope[] = newEvents.map((event, i) => {
      return {
        id: newId(now),
        type: event.type,
        stream,
        version: expectedVersion + i + 1,
        occurredAt,
        actor,
        data: datas.sealed[i],
        meta: {
          ...(requestId ? { requestId } : {}),
          ...(traceparent ? { traceparent } : {}),
        },
      };
    });
    const commit: CommitDoc = {
      _id: commitId(stream, expectedVersion),
      stream,
      fromVersion: expectedVersion,
      toVersion: expectedVersion + envelopes.length,
      events: envelopes.map(toStored),
      committedAt: occurredAt,
      seq,
    };
    // The caller sees what it appended; the commit (and so the bus) holds the sealed form.
    return { commit, envelopes: envelopes.map((e, i) => ({ ...e, data: datas.plain[i] })) };
  };

  /** After the commits are durable: the projections (read-your-writes), then the listeners (the relay). */
  const afterCommit = async (commits: CommitDoc[], previous?: CommitDoc, group?: string): Promise<void> => {
    if (commits.length === 0) return;
    // The commits are durable: from here on the command succeeded whatever happens to its side effects.
    try {
      const ok =
        commits.length === 1 && group === undefined
          ? await runner.projectCommit(commits[0] as CommitDoc, previous)
          : await runner.projectCommits(commits, group);
      if (!ok) scheduleRetry();
    } catch (err) {
      log.error(
        { err, commits: commits.map((c) => c._id) },
        'projecting a commit failed; it stays unprojected until catch-up',
      );
      scheduleRetry();
    }
    for (const listener of listeners) {
      for (const doc of commits) {
        try {
          listener({ stream: doc.stream, seq: doc.seq, doc });
        } catch (err) {
          log.error({ err }, 'append listener failed');
        }
      }
    }
  };

  const append = async (
    stream: string,
    expectedVersion: number,
    newEvents: NewEvent[],
    options: AppendOptions = {},
  ): Promise<EventEnvelope[]> => {
    const datas = await prepare(stream, expectedVersion, newEvents);
    if (newEvents.length === 0) return [];
    await ready();

    // The unique _id stops two writers at the same version and any stale version; this refuses a version that is
    // free but not the head (it would fork the stream).
    const previous = await headAt(stream, expectedVersion);
    if (previous === undefined) throw new ConcurrencyError(stream, expectedVersion);

    const seq = await reserveSeqs(1, previous?.seq ?? 0);
    const { commit, envelopes } = buildCommit(stream, expectedVersion, newEvents, datas, seq, options);
    try {
      await writeCommits([commit], async () => {
        await events.insertOne(commit);
        return new Set<number>();
      });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new ConcurrencyError(stream, expectedVersion);
      throw err;
    }
    await afterCommit([commit], previous ?? undefined);
    return envelopes;
  };

  /**
   * Inserts the commits; a commit whose _id is taken (its stream moved on, or the same new stream twice in one batch)
   * is left out, and its seq returned. insertMany stops at the first clash (what it inserted before stays, or an
   * adapter may have undone it): the documents found with our own seq are in, the first one found with another seq
   * (or repeated in the batch) is the clash, and the others are inserted again.
   */
  const insertCommits = async (commits: CommitDoc[]): Promise<Set<number>> => {
    const refused = new Set<number>();
    let rest = commits;
    while (rest.length > 0) {
      try {
        await events.insertMany(rest);
        return refused;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        const found = await events.find(
          { _id: { $in: rest.map((c) => c._id) } },
          { projection: { _id: 1, seq: 1 } },
        );
        const seqOf = new Map(found.map((doc) => [doc._id, doc.seq]));
        const earlier = new Set<string>();
        const clash = rest.findIndex((c) => {
          const stored = seqOf.get(c._id);
          if ((stored !== undefined && stored !== c.seq) || earlier.has(c._id)) return true;
          earlier.add(c._id);
          return false;
        });
        if (clash < 0) throw err;
        refused.add((rest[clash] as CommitDoc).seq);
        rest = rest.filter((c, i) => i !== clash && seqOf.get(c._id) !== c.seq);
      }
    }
    return refused;
  };

  const appendMany = async (
    entries: AppendManyEntry[],
    options: AppendOptions = {},
  ): Promise<AppendManyResult[]> => {
    const prepared = await Promise.all(
      entries.map((entry) => prepare(entry.stream, entry.expectedVersion, entry.events)),
    );
    await ready();
    const results: AppendManyResult[] = entries.map(() => ({ ok: true, events: [] }));
    const todo: number[] = [];
    let above = 0;
    for (const [i, entry] of entries.entries()) {
      if (entry.events.length === 0) continue;
      const previous = await headAt(entry.stream, entry.expectedVersion);
      if (previous === undefined) {
        results[i] = { ok: false, error: new ConcurrencyError(entry.stream, entry.expectedVersion) };
      } else {
        todo.push(i);
        above = Math.max(above, previous?.seq ?? 0);
      }
    }
    if (todo.length === 0) return results;
    const first = await reserveSeqs(todo.length, above);
    const built = todo.map((i, k) => {
      const entry = entries[i] as AppendManyEntry;
      return {
        i,
        ...buildCommit(
          entry.stream,
          entry.expectedVersion,
          entry.events,
          prepared[i] as { plain: unknown[]; sealed: unknown[] },
          first + k,
          options,
        ),
      };
    });
    const commits = built.map((b) => b.commit);
    // Commits the projections apply together get one `proj` row (named by the first), which they delete together.
    const together = runner.batchable(commits);
    const refused = await writeCommits(commits, () => insertCommits(commits), together);
    const inserted: CommitDoc[] = [];
    for (const { i, commit, envelopes } of built) {
      const entry = entries[i] as AppendManyEntry;
      if (refused.has(commit.seq)) {
        results[i] = { ok: false, error: new ConcurrencyError(entry.stream, entry.expectedVersion) };
      } else {
        results[i] = { ok: true, events: envelopes };
        inserted.push(commit);
      }
    }
    await afterCommit(
      inserted,
      undefined,
      together ? pendingId('proj', (commits[0] as CommitDoc).seq) : undefined,
    );
    return results;
  };

  return {
    service,
    append,
    appendMany,
    readStream,
    readAll,
    register: (projection) => runner.register(projection),
    catchUp: async () => {
      await ready();
      return runner.catchUp();
    },
    rebuild: async (name) => {
      await ready();
      return runner.rebuild(name);
    },
    onAppend(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}

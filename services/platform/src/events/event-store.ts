import { checkEvent } from '@nudge/contracts';
import type { Logger } from 'pino';
import { currentContext, currentRequestId } from '../context';
import { ConcurrencyError, DuplicateKeyError } from '../errors';
import { newId } from '../ids';
import { createLogger } from '../logger';
import type { Doc, DocumentStore } from '../store/types';
import { currentTraceparent } from '../tracing';
import { type CommitDoc, commitId, EVENTS, EVENTS_META, eventsOf, toStored } from './commits';
import { createProjectionRunner } from './projections';
import { backoffMs } from './serial';
import type { AppendOptions, EventEnvelope, EventStore, NewEvent, Projection } from './types';

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
  /** Called after every successful append (the relay's notify). Returns an unsubscribe function. */
  onAppend(listener: (commit: { stream: string; seq: number }) => void): () => void;
  /** Stops background projection retries (call at shutdown, before closing the store). */
  close(): void;
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
}

type CounterDoc = Doc & { value: number };

/**
 * Event store on the document store: one document per commit in `events` (see commits.ts), a global
 * commit order from a counter in `events_meta`, projections applied right after the insert.
 */
export function createEventStore(opts: EventStoreOptions): ServiceEventStore {
  const { store, service } = opts;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? createLogger(`${service}.events`);
  const pageSize = opts.pageSize ?? 200;
  const validate = opts.validate ?? checkEvent;
  const events = store.collection<CommitDoc>(EVENTS);
  const meta = store.collection<CounterDoc>(EVENTS_META);
  const listeners = new Set<(commit: { stream: string; seq: number }) => void>();

  let indexes: Promise<void> | undefined;
  const ready = () => {
    indexes ??= (async () => {
      await events.createIndex({ stream: 1, toVersion: 1 });
      await events.createIndex({ seq: 1 }, { unique: true });
      await events.createIndex({ published: 1, seq: 1 });
      await events.createIndex({ projected: 1, seq: 1 });
    })().catch((err: unknown) => {
      indexes = undefined;
      throw err;
    });
    return indexes;
  };

  /**
   * Whether expectedVersion is the stream's head. The insert's unique _id (`<stream>@<expectedVersion>`) refuses a
   * version that is taken (for 0: any existing stream); what is left to refuse is a version no commit ends at
   * (a future one): one point lookup on the {stream, toVersion} index, none for a new stream.
   */
  const mayAppendAt = async (stream: string, expectedVersion: number): Promise<boolean> =>
    expectedVersion === 0 || (await events.findOne({ stream, toVersion: expectedVersion })) !== null;

  const nextSeq = async (): Promise<number> => {
    const counter = await meta.findOneAndUpdate({ _id: 'seq' }, { $inc: { value: 1 } }, { upsert: true });
    if (!counter || typeof counter.value !== 'number')
      throw new Error('event store: the commit counter did not advance');
    return counter.value;
  };

  const readStream = async (stream: string): Promise<EventEnvelope[]> => {
    await ready();
    const commits = await events.find({ stream }, { sort: { fromVersion: 1 } });
    return commits.flatMap(eventsOf);
  };

  async function* readAll(): AsyncIterable<EventEnvelope> {
    await ready();
    let afterSeq = 0;
    for (;;) {
      const page = await events.find({ seq: { $gt: afterSeq } }, { sort: { seq: 1 }, limit: pageSize });
      for (const commit of page) {
        afterSeq = commit.seq;
        yield* eventsOf(commit);
      }
      if (page.length < pageSize) return;
    }
  }

  const runner = createProjectionRunner({ store, log, readStream, readAll: () => readAll() });

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

  const append = async (
    stream: string,
    expectedVersion: number,
    newEvents: NewEvent[],
    options: AppendOptions = {},
  ): Promise<EventEnvelope[]> => {
    if (typeof stream !== 'string' || stream === '')
      throw new TypeError('append: stream must be a non-empty string');
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0) {
      throw new TypeError('append: expectedVersion must be an integer >= 0');
    }
    if (newEvents.length === 0) return [];
    // Exactly what the bus will carry (JSON), so live state, rebuilds and consumers agree; checked against the
    // contracts before anything is written (a refused append takes no sequence number).
    const datas = newEvents.map((event) => {
      if (typeof event.type !== 'string' || event.type === '')
        throw new TypeError('append: every event needs a type');
      const data: unknown = JSON.parse(JSON.stringify(event.data ?? null));
      validate(event.type, data);
      return data;
    });
    await ready();

    // The unique _id stops two writers at the same version and any stale version; this refuses a version that is
    // free but not the head (it would fork the stream).
    if (!(await mayAppendAt(stream, expectedVersion))) throw new ConcurrencyError(stream, expectedVersion);

    const seq = await nextSeq();
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
        data: datas[i],
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
      published: false,
      projected: false,
    };
    try {
      await events.insertOne(commit);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new ConcurrencyError(stream, expectedVersion);
      throw err;
    }

    // The commit is durable: from here on the command succeeded whatever happens to its side effects.
    try {
      if (!(await runner.projectCommit(commit))) scheduleRetry();
    } catch (err) {
      log.error(
        { err, commit: commit._id },
        'projecting a commit failed; it stays unprojected until catch-up',
      );
      scheduleRetry();
    }
    for (const listener of listeners) {
      try {
        listener({ stream, seq });
      } catch (err) {
        log.error({ err }, 'append listener failed');
      }
    }
    return envelopes;
  };

  return {
    service,
    append,
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

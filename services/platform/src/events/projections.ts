import type { Logger } from 'pino';
import type { Keyring } from '../privacy/keyring';
import type { DocumentStore } from '../store/types';
import {
  type CommitDoc,
  EVENTS,
  EVENTS_META,
  entriesOf,
  ORPHAN_MS,
  openedEventsOf,
  PENDING,
  type PendingDoc,
  PROJECTION_CHECKPOINTS,
  pendingId,
  pendingRange,
  singleRowsOf,
} from './commits';
import { createSerial } from './serial';
import type { EventEnvelope, Projection } from './types';

type CheckpointDoc = { _id: string; projection: string; seq: number; stream?: string };
type MarkerDoc = { _id: string; projection: string; builtAt: string };

export interface ProjectionRunner {
  register(projection: Projection): void;
  readonly projections: readonly Projection[];
  /**
   * Applies one freshly inserted commit; false (logged, its pending row left) if a projection threw. previous: the
   * stream's commit before it as read before the insert, if the caller has it (when this process applied it and has
   * not written its mark yet, no earlier commit can be missing from a projection, so the gap is not looked up).
   */
  projectCommit(commit: CommitDoc, previous?: CommitDoc): Promise<boolean>;
  /**
   * Applies freshly inserted commits (each in its stream's order, as projectCommit does) and deletes their pending
   * rows in one write; false if a projection threw on any of them (their rows stay). group: the _id of the one `proj`
   * row written for them all (when batchable said so): deleted with them when they are applied together, else split
   * into rows of one commit first.
   */
  projectCommits(commits: CommitDoc[], group?: string): Promise<boolean>;
  /**
   * Whether these commits are applied together (see the runner): their `proj` rows can be one (groupRowOf), since the
   * projections apply them all or none.
   */
  batchable(commits: CommitDoc[]): boolean;
  catchUp(): Promise<number>;
  rebuild(name?: string): Promise<void>;
}

export interface ProjectionRunnerOptions {
  store: DocumentStore;
  log: Logger;
  readStream(stream: string): Promise<EventEnvelope[]>;
  /** Opens events' personal fields before a projection sees them. */
  keyring: Keyring;
  readAll(): AsyncIterable<EventEnvelope>;
  pageSize?: number;
}

const markerId = (projection: string) => `projection:${projection}`;

/** Commits this process marked that it remembers (the oldest forgotten beyond this; see `marked`). */
const MARKED_KEPT = 10_000;

/**
 * Applies the event store's commits to the registered read models.
 *
 * - A commit has a `proj` row in `events_pending` (written with it, see event-store.ts) until every projection
 *   applied it: then the row is deleted. Until then the row's `projectedBy` lists the projections that did, so
 *   catch-up after a failure or a crash applies it to the others only.
 * - A projection only ever sees a stream's events in version order: before a commit, the stream's earlier commits
 *   still unprojected (an earlier failure) are applied to the projections that missed them (the gap is filled).
 * - Projection work runs one piece at a time in a process (append, catchUp and rebuild never overlap): some
 *   projections read, then write a document several streams share (content's feed order), which
 *   per-stream ordering alone would let two commits interleave on. A commit every registered projection takes per
 *   stream (`concurrency: 'stream'`, or each of the commit's event types in its `streamTypes`: apply only writes
 *   documents of the event's own stream) is applied concurrently with other streams' commits; only the commits of
 *   one stream run one at a time, in append order, whichever way each is applied. catchUp and rebuild still run
 *   alone. A projection must not call append itself.
 * - The mark (the pending row's deletion) and the checkpoints are written after the projection's lock is released,
 *   for every commit applied meanwhile in one write (group commit): the commits applied but not yet marked are
 *   remembered in memory,
 *   so a later commit of the stream does not apply them again as a gap, and catchUp waits for their mark. A crash
 *   before the mark is written leaves them unprojected: catch-up applies them again (apply is idempotent per event).
 * - Each projection keeps one checkpoint, `projection_checkpoints/<name>`: the highest commit sequence it applied.
 * - A projection registered after events exist (a new read model) has no "built" marker: catchUp() replays
 *   the whole store through it once.
 */
export function createProjectionRunner(opts: ProjectionRunnerOptions): ProjectionRunner {
  const { store, log } = opts;
  const pageSize = opts.pageSize ?? 100;
  const events = store.collection<CommitDoc>(EVENTS);
  const checkpoints = store.collection<CheckpointDoc>(PROJECTION_CHECKPOINTS);
  const meta = store.collection<MarkerDoc>(EVENTS_META);
  const pending = store.collection<PendingDoc>(PENDING);
  const projections: Projection[] = [];
  const serial = createSerial();
  /** While an exclusive piece of work (catchUp, rebuild, or a commit some projection needs alone) runs. */
  let exclusiveRunning: Promise<void> | null = null;
  /** Per-stream pieces of work in progress. */
  let active = 0;
  let idle: (() => void) | null = null;
  /** Each stream's last piece of append work (settles when it is done, never rejects). */
  const streamTails = new Map<string, Promise<void>>();
  /** Per projection: every event type it applies per stream (undefined: all of them). */
  const streamTypes = new Map<Projection, ReadonlySet<string> | undefined>();
  /** Whether every projection applies all of the commit's events per stream. */
  const perStream = (commit: CommitDoc): boolean =>
    projections.length > 0 &&
    projections.every((p) => {
      if (p.concurrency === 'stream') return true;
      const types = streamTypes.get(p);
      return types !== undefined && commit.events.every((e) => types.has(e.type));
    });

  /** Runs fn alone: no other projection work of this process runs meanwhile. */
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> =>
    serial(async () => {
      let release = () => {};
      exclusiveRunning = new Promise<void>((resolve) => {
        release = resolve;
      });
      try {
        while (active > 0) await new Promise<void>((resolve) => (idle = resolve));
        return await fn();
      } finally {
        exclusiveRunning = null;
        release();
      }
    });

  /** Runs fn concurrently with other per-stream work (never with exclusive work). */
  const concurrent = async <T>(fn: () => Promise<T>): Promise<T> => {
    while (exclusiveRunning) await exclusiveRunning;
    active += 1;
    try {
      return await fn();
    } finally {
      active -= 1;
      if (active === 0 && idle) {
        const wake = idle;
        idle = null;
        wake();
      }
    }
  };

  /**
   * The lock a commit's projection work takes: after the stream's earlier work, then per stream or alone. A piece
   * waits for its stream's previous one before it takes either lock, so it never holds one while waiting.
   */
  const locked = <T>(commit: CommitDoc, fn: () => Promise<T>): Promise<T> => {
    const { stream } = commit;
    const previous = streamTails.get(stream);
    const start = () => (perStream(commit) ? concurrent(fn) : exclusive(fn));
    const run = previous ? previous.then(start) : start();
    const tail = run.then(
      () => {},
      () => {},
    );
    streamTails.set(stream, tail);
    return run.finally(() => {
      if (streamTails.get(stream) === tail) streamTails.delete(stream);
    });
  };

  /** Commits applied by every projection whose mark (pending row deleted) is not written yet (id -> seq). */
  const unmarked = new Map<string, number>();
  /**
   * Commits whose mark this process wrote lately (ids, oldest first): every projection applied them and their gaps, so a
   * later commit of their stream has no gap to look up (a commit stays projected: its row is never written again).
   * What the commit documents' `projected` flag told the head check before the marks were rows.
   */
  const marked = new Set<string>();
  let marking: Promise<void> | undefined;
  let markAgain: Promise<void> | undefined;

  /**
   * `proj` rows of commits applied together whose deletion is not written yet (their _ids): every commit they stand
   * for is in `unmarked`.
   */
  const unmarkedGroups = new Set<string>();

  /** Writes the marks of every commit in `unmarked` (one deleteMany of their rows) and moves the checkpoints up. */
  const writeMarks = async (): Promise<void> => {
    const batch = [...unmarked];
    const groups = [...unmarkedGroups];
    if (batch.length === 0) return;
    try {
      // The marks and the checkpoints are sent together: one commit on the embedded store (group commit).
      const top = Math.max(...batch.map(([, seq]) => seq));
      const rows = new Set([...batch.map(([, seq]) => pendingId('proj', seq)), ...groups]);
      await Promise.all([
        pending.deleteMany({ _id: { $in: [...rows] } }),
        ...projections.map((projection) => advanceCheckpoint(projection.name, top)),
      ]);
      for (const [id] of batch) {
        marked.delete(id);
        marked.add(id);
      }
      while (marked.size > MARKED_KEPT) marked.delete(marked.values().next().value as string);
    } finally {
      // Written, or left unprojected for catch-up: either way no longer this process's to remember.
      for (const [id] of batch) unmarked.delete(id);
      for (const id of groups) unmarkedGroups.delete(id);
    }
  };

  /** Group commit of the marks: one write at a time, covering every commit applied before it started. */
  const flushMarks = (): Promise<void> => {
    if (!marking) {
      marking = writeMarks().finally(() => {
        marking = undefined;
      });
      return marking;
    }
    markAgain ??= marking
      .catch(() => undefined)
      .then(() => {
        markAgain = undefined;
        return flushMarks();
      });
    return markAgain;
  };
  /** Projections whose checkpoint document exists (so advancing it is one conditional update). */
  const checkpointed = new Set<string>();

  const register = (projection: Projection): void => {
    if (projections.some((p) => p.name === projection.name)) {
      throw new Error(`projection ${projection.name} is registered twice`);
    }
    projections.push(projection);
    streamTypes.set(projection, projection.streamTypes ? new Set(projection.streamTypes) : undefined);
  };

  /** Moves the projection's checkpoint up to seq (never down). */
  const advanceCheckpoint = async (projection: string, seq: number): Promise<void> => {
    if (!checkpointed.has(projection)) {
      await checkpoints.updateOne(
        { _id: projection },
        { $setOnInsert: { projection, seq: 0 } },
        { upsert: true },
      );
      checkpointed.add(projection);
    }
    await checkpoints.updateOne({ _id: projection, seq: { $lt: seq } }, { $set: { seq } });
  };

  /**
   * Replaces a `proj` row of several commits (applied together, see groupRowOf) by rows of one commit each (with its
   * projectedBy): the rows of the others first, then the row itself (a crash in between leaves both: the commits are
   * applied again, apply is idempotent per event).
   */
  const splitRow = async (row: PendingDoc): Promise<void> => {
    if (!row.commits) return;
    const singles = singleRowsOf(row, 'proj');
    for (const single of singles)
      if (single._id !== row._id) await pending.replaceOne({ _id: single._id }, single, { upsert: true });
    const own = singles.find((single) => single._id === row._id);
    if (own) await pending.replaceOne({ _id: row._id }, own);
    else await pending.deleteOne({ _id: row._id });
  };

  /** Splits the `proj` rows of several commits some of which this process has not applied (see splitRow). */
  const splitRows = async (): Promise<void> => {
    for (const row of await pending.find({ ...pendingRange('proj'), commits: { $exists: true } }))
      if (!entriesOf(row).every((e) => unmarked.has(e.commit) || marked.has(e.commit))) await splitRow(row);
  };

  /**
   * Whether the commit at seq has a `proj` row: its own, or one of several commits that stands for it (the greatest
   * row _id up to its own; a row of several commits spans a block of seqs no other commit has).
   */
  const hasRow = async (seq: number): Promise<boolean> => {
    const row = await pending.findOne(
      { _id: { $gt: 'proj:', $lte: pendingId('proj', seq) } },
      { sort: { _id: -1 } },
    );
    return row !== null && entriesOf(row).some((entry) => entry.seq === seq);
  };

  /**
   * The stream's commits before this one that are still unprojected (and not applied by this process meanwhile), in
   * stream order, each with its pending row. The rows have no index on `stream` (it cost each append more than the
   * rare scan saves): the `proj` rows are scanned, those of commits in flight or left by a failed projection.
   */
  const gapBefore = async (commit: CommitDoc): Promise<Array<{ row: PendingDoc; commit: CommitDoc }>> => {
    if (commit.fromVersion === 0) return [];
    await splitRows();
    const rows = (
      await pending.find(
        { stream: commit.stream, toVersion: { $lte: commit.fromVersion }, ...pendingRange('proj') },
        { sort: { _id: 1 } },
      )
    ).filter((row) => !unmarked.has(row.commit));
    if (rows.length === 0) return [];
    const found = new Map(
      (await events.find({ _id: { $in: rows.map((row) => row.commit) } })).map((c) => [c._id, c]),
    );
    return rows.flatMap((row) => {
      const earlier = found.get(row.commit);
      // A row whose commit is not there with its seq is an orphan: nothing to apply (catch-up deletes it).
      return earlier?.seq === row.seq ? [{ row, commit: earlier }] : [];
    });
  };

  const applyEvents = async (projection: Projection, commitEvents: EventEnvelope[]) => {
    for (const event of commitEvents) await projection.apply(event);
  };

  /**
   * Applies one commit to every projection that has not; true when all succeeded: the commit is then remembered in
   * `unmarked` (flushMarks writes its mark). A partial success is written at once (rare: a projection failed).
   */
  const applyCommit = async (
    commit: CommitDoc,
    previous?: CommitDoc,
    projectedBy?: readonly string[],
  ): Promise<boolean> => {
    const commitEvents = await openedEventsOf(opts.keyring, commit);
    // A commit is remembered as applied, or marked (its row deleted), only after its own gap was filled for every
    // projection, so when the one just before is remembered, or has no row, nothing earlier is missing: no scan of the
    // rows (a point read of the previous commit's row at most).
    const gapFree =
      previous !== undefined &&
      (unmarked.has(previous._id) || marked.has(previous._id) || !(await hasRow(previous.seq)));
    const gap = gapFree ? [] : await gapBefore(commit);
    const done = new Set(projectedBy ?? []);
    const succeeded: string[] = [];
    let ok = true;
    for (const projection of projections) {
      if (done.has(projection.name)) continue;
      try {
        for (const earlier of gap) {
          if (earlier.row.projectedBy?.includes(projection.name)) continue;
          await applyEvents(projection, await openedEventsOf(opts.keyring, earlier.commit));
          await pending.updateOne({ _id: earlier.row._id }, { $addToSet: { projectedBy: projection.name } });
        }
        await applyEvents(projection, commitEvents);
        succeeded.push(projection.name);
      } catch (err) {
        ok = false;
        log.error(
          { err, projection: projection.name, stream: commit.stream, commit: commit._id },
          'projection failed; the commit stays unprojected until catch-up',
        );
      }
    }
    if (ok) {
      unmarked.set(commit._id, commit.seq);
      return true;
    }
    if (succeeded.length > 0) {
      await pending.updateOne(
        { _id: pendingId('proj', commit.seq) },
        { $addToSet: { projectedBy: { $each: succeeded } } },
      );
    }
    for (const name of succeeded) await advanceCheckpoint(name, commit.seq);
    return false;
  };

  /**
   * Commits that can be applied together: each opens a new stream (nothing earlier of it can be missing) and no two
   * share one, and some projection takes events in a batch (applyMany: one write for all, e.g. a reminder batch's
   * sends; one transaction instead of one per commit).
   */
  const batchable = (commits: CommitDoc[]): boolean =>
    commits.length > 1 &&
    projections.some((p) => p.applyMany) &&
    new Set(commits.map((c) => c.stream)).size === commits.length &&
    commits.every((c) => c.fromVersion === 0);

  /**
   * Applies new-stream commits to every projection in one pass (the caller holds the exclusive lock); true when all
   * succeeded, and the commits are then remembered in `unmarked`. On a failure nothing is remembered and the caller
   * applies them one by one (the failure is logged there).
   */
  const applyTogether = async (commits: CommitDoc[]): Promise<boolean> => {
    const all = (await Promise.all(commits.map((c) => openedEventsOf(opts.keyring, c)))).flat();
    try {
      for (const projection of projections) {
        if (projection.applyMany) await projection.applyMany(all);
        else for (const event of all) await projection.apply(event);
      }
    } catch (err) {
      log.warn(
        { err, commits: commits.length },
        'applying commits together failed; applying them one by one',
      );
      return false;
    }
    for (const commit of commits) unmarked.set(commit._id, commit.seq);
    return true;
  };

  /** Applies and marks in one go (catch-up: the caller holds the exclusive lock). */
  const applyAndMark = async (commit: CommitDoc, projectedBy?: readonly string[]): Promise<boolean> => {
    const ok = await applyCommit(commit, undefined, projectedBy);
    if (ok) await flushMarks();
    return ok;
  };

  /** reset + replay everything, for the given projections. Caller holds the serial lock. */
  const rebuildLocked = async (targets: Projection[]) => {
    if (targets.length === 0) return;
    await flushMarks().catch(() => undefined);
    const names = targets.map((p) => p.name);
    for (const projection of targets) {
      await meta.deleteOne({ _id: markerId(projection.name) });
      await projection.reset();
      await checkpoints.deleteMany({ projection: projection.name });
      checkpointed.delete(projection.name);
    }
    const applied = new Map<string, number>();
    for await (const event of opts.readAll()) {
      if (event.version <= (applied.get(event.stream) ?? 0)) continue;
      for (const projection of targets) await projection.apply(event);
      applied.set(event.stream, event.version);
    }
    const last = await events.findOne({}, { sort: { seq: -1 } });
    // The replay covered every commit, also those still unprojected: catch-up must not apply them again.
    await pending.updateMany(pendingRange('proj'), { $addToSet: { projectedBy: { $each: names } } });
    for (const projection of targets) {
      await advanceCheckpoint(projection.name, last?.seq ?? 0);
      await meta.replaceOne(
        { _id: markerId(projection.name) },
        { _id: markerId(projection.name), projection: projection.name, builtAt: new Date().toISOString() },
        { upsert: true },
      );
    }
    log.info({ projections: names, streams: applied.size }, 'projections rebuilt');
  };

  const catchUpLocked = async (): Promise<number> => {
    // The marks of commits applied just before are written first (or, if that fails, the commits are applied again).
    await flushMarks().catch(() => undefined);
    // Per-stream checkpoints a store may still hold are deleted: each projection keeps one checkpoint.
    await checkpoints.deleteMany({ stream: { $exists: true } });
    const unbuilt: Projection[] = [];
    for (const projection of projections) {
      if (!(await meta.findOne({ _id: markerId(projection.name) }))) unbuilt.push(projection);
    }
    await rebuildLocked(unbuilt);

    let count = 0;
    let after: string | undefined;
    for (;;) {
      const page = await pending.find(pendingRange('proj', after), { sort: { _id: 1 }, limit: pageSize });
      if (page.length === 0) break;
      for (const { _id } of page) {
        // A gap filled since the page was read changed projectedBy (or applied it all): what the row says now.
        const row = await pending.findOne({ _id });
        if (row?.commits) {
          // A row of several commits: split, then its rows are read again (the first has its _id).
          await splitRow(row);
          break;
        }
        after = _id;
        if (!row) continue;
        const commit = await events.findOne({ _id: row.commit });
        if (commit?.seq !== row.seq) {
          // An orphan: its commit clashed, or was never written (given up on after ORPHAN_MS).
          if (commit || Date.now() - row.at > ORPHAN_MS) await pending.deleteOne({ _id });
          continue;
        }
        if (!(await applyAndMark(commit, row.projectedBy))) {
          throw new Error(`catch-up stopped: a projection failed on commit ${commit._id} (see the log)`);
        }
        count += 1;
      }
    }
    if (count > 0) log.info({ commits: count }, 'projections caught up');
    return count;
  };

  return {
    register,
    get projections() {
      return projections;
    },
    projectCommit: async (commit, previous) => {
      const ok = await locked(commit, () => applyCommit(commit, previous));
      if (ok) await flushMarks();
      return ok;
    },
    batchable,
    projectCommits: async (commits, group) => {
      let ok = true;
      if (
        (group !== undefined || batchable(commits)) &&
        (await exclusive(async () => {
          const together = await applyTogether(commits);
          if (together && group !== undefined) unmarkedGroups.add(group);
          return together;
        }))
      ) {
        await flushMarks();
        return true;
      }
      // Their one row becomes one per commit before any is applied alone.
      if (group !== undefined) {
        const row = await pending.findOne({ _id: group });
        if (row) await splitRow(row);
      }
      // One by one (a commit after another of its stream, or a projection failed together: apply is idempotent).
      for (const commit of commits) {
        if (!(await locked(commit, () => applyCommit(commit)))) ok = false;
      }
      await flushMarks();
      return ok;
    },
    catchUp: () => exclusive(catchUpLocked),
    rebuild: (name) =>
      exclusive(async () => {
        const targets = name === undefined ? [...projections] : projections.filter((p) => p.name === name);
        if (name !== undefined && targets.length === 0) throw new Error(`no projection named ${name}`);
        await rebuildLocked(targets);
      }),
  };
}

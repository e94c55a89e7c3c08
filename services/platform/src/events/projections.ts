import type { Logger } from 'pino';
import type { DocumentStore } from '../store/types';
import { type CommitDoc, EVENTS, EVENTS_META, eventsOf, PROJECTION_CHECKPOINTS } from './commits';
import { createSerial } from './serial';
import type { EventEnvelope, Projection } from './types';

type CheckpointDoc = { _id: string; projection: string; seq: number; stream?: string };
type MarkerDoc = { _id: string; projection: string; builtAt: string };

export interface ProjectionRunner {
  register(projection: Projection): void;
  readonly projections: readonly Projection[];
  /** Applies one freshly inserted commit; false (logged, left projected:false) if a projection threw. */
  projectCommit(commit: CommitDoc): Promise<boolean>;
  catchUp(): Promise<number>;
  rebuild(name?: string): Promise<void>;
}

export interface ProjectionRunnerOptions {
  store: DocumentStore;
  log: Logger;
  readStream(stream: string): Promise<EventEnvelope[]>;
  readAll(): AsyncIterable<EventEnvelope>;
  pageSize?: number;
}

const markerId = (projection: string) => `projection:${projection}`;

/**
 * Applies the event store's commits to the registered read models.
 *
 * - A commit is marked `projected` once every projection applied it; until then `projectedBy` lists those that
 *   did, so catch-up after a failure or a crash applies it to the others only.
 * - A projection only ever sees a stream's events in version order: before a commit, the stream's earlier commits
 *   still unprojected (an earlier failure) are applied to the projections that missed them (the gap is filled).
 * - All projection work in a process runs one piece at a time (append, catchUp and rebuild never overlap): some
 *   projections read, then write a document several streams share (content's feed order, a post's read count), which
 *   per-stream ordering alone would let two commits interleave on. A projection must not call append itself.
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
  const projections: Projection[] = [];
  const serial = createSerial();
  /** Projections whose checkpoint document exists (so advancing it is one conditional update). */
  const checkpointed = new Set<string>();

  const register = (projection: Projection): void => {
    if (projections.some((p) => p.name === projection.name)) {
      throw new Error(`projection ${projection.name} is registered twice`);
    }
    projections.push(projection);
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

  /** The stream's commits before this one that are still unprojected, in stream order. */
  const gapBefore = async (commit: CommitDoc): Promise<CommitDoc[]> =>
    commit.fromVersion === 0
      ? []
      : events.find(
          { stream: commit.stream, projected: false, toVersion: { $lte: commit.fromVersion } },
          { sort: { fromVersion: 1 } },
        );

  const applyEvents = async (projection: Projection, commitEvents: EventEnvelope[]) => {
    for (const event of commitEvents) await projection.apply(event);
  };

  /** Applies one commit to every projection that has not; true when all succeeded (the commit is then marked). */
  const applyCommit = async (commit: CommitDoc): Promise<boolean> => {
    const commitEvents = eventsOf(commit);
    const gap = await gapBefore(commit);
    const done = new Set(commit.projectedBy ?? []);
    const succeeded: string[] = [];
    let ok = true;
    for (const projection of projections) {
      if (done.has(projection.name)) continue;
      try {
        for (const earlier of gap) {
          if (earlier.projectedBy?.includes(projection.name)) continue;
          await applyEvents(projection, eventsOf(earlier));
          await events.updateOne({ _id: earlier._id }, { $addToSet: { projectedBy: projection.name } });
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
      await events.updateOne({ _id: commit._id }, { $set: { projected: true }, $unset: { projectedBy: '' } });
    } else if (succeeded.length > 0) {
      await events.updateOne({ _id: commit._id }, { $addToSet: { projectedBy: { $each: succeeded } } });
    }
    for (const name of succeeded) await advanceCheckpoint(name, commit.seq);
    return ok;
  };

  /** reset + replay everything, for the given projections. Caller holds the serial lock. */
  const rebuildLocked = async (targets: Projection[]) => {
    if (targets.length === 0) return;
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
    await events.updateMany({ projected: false }, { $addToSet: { projectedBy: { $each: names } } });
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
    // Checkpoints used to be kept per stream; one per projection replaces them.
    await checkpoints.deleteMany({ stream: { $exists: true } });
    const unbuilt: Projection[] = [];
    for (const projection of projections) {
      if (!(await meta.findOne({ _id: markerId(projection.name) }))) unbuilt.push(projection);
    }
    await rebuildLocked(unbuilt);

    let count = 0;
    let afterSeq = 0;
    for (;;) {
      const page = await events.find(
        { projected: false, seq: { $gt: afterSeq } },
        { sort: { seq: 1 }, limit: pageSize },
      );
      if (page.length === 0) break;
      for (const commit of page) {
        afterSeq = commit.seq;
        // A gap filled since the page was read changed projectedBy: apply what the stored commit says.
        const current = await events.findOne({ _id: commit._id });
        if (!current || current.projected) continue;
        if (!(await applyCommit(current))) {
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
    projectCommit: (commit) => serial(() => applyCommit(commit)),
    catchUp: () => serial(catchUpLocked),
    rebuild: (name) =>
      serial(async () => {
        const targets = name === undefined ? [...projections] : projections.filter((p) => p.name === name);
        if (name !== undefined && targets.length === 0) throw new Error(`no projection named ${name}`);
        await rebuildLocked(targets);
      }),
  };
}

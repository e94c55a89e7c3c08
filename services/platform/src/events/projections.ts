import type { Logger } from 'pino';
import type { DocumentStore } from '../store/types';
import { type CommitDoc, EVENTS, EVENTS_META, eventsOf, PROJECTION_CHECKPOINTS } from './commits';
import { createSerial } from './serial';
import type { EventEnvelope, Projection } from './types';

type CheckpointDoc = { _id: string; projection: string; stream: string; version: number };
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

const checkpointId = (projection: string, stream: string) => `${projection}:${stream}`;
const markerId = (projection: string) => `projection:${projection}`;

/**
 * Applies the event store's commits to the registered read models.
 *
 * - Every projection keeps a checkpoint per stream (the highest version it applied); events at or below it
 *   are skipped, so catch-up after a crash never applies an event twice in one process's view.
 * - A projection only ever sees a stream's events in version order: if its checkpoint is behind the commit
 *   being applied (an earlier commit failed to project), the missing events are read from the stream first.
 * - All projection work in a process runs one piece at a time (append, catchUp and rebuild never overlap).
 *   Consequently a projection must not call append itself (it would wait for itself).
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

  const register = (projection: Projection): void => {
    if (projections.some((p) => p.name === projection.name)) {
      throw new Error(`projection ${projection.name} is registered twice`);
    }
    projections.push(projection);
  };

  const readCheckpoint = async (projection: string, stream: string): Promise<number> =>
    (await checkpoints.findOne({ _id: checkpointId(projection, stream) }))?.version ?? 0;

  const writeCheckpoint = (projection: string, stream: string, version: number) =>
    checkpoints.replaceOne(
      { _id: checkpointId(projection, stream) },
      { _id: checkpointId(projection, stream), projection, stream, version },
      { upsert: true },
    );

  /** Applies the commit's events (and any earlier ones the projection missed) past its checkpoint. */
  const applyTo = async (projection: Projection, stream: string, commitEvents: EventEnvelope[]) => {
    const first = commitEvents[0];
    if (!first) return;
    let checkpoint = await readCheckpoint(projection.name, stream);
    let todo = commitEvents;
    if (checkpoint < first.version - 1) {
      const missed = (await opts.readStream(stream)).filter(
        (e) => e.version > checkpoint && e.version < first.version,
      );
      todo = [...missed, ...commitEvents];
    }
    for (const event of todo) {
      if (event.version <= checkpoint) continue;
      await projection.apply(event);
      checkpoint = event.version;
      await writeCheckpoint(projection.name, stream, checkpoint);
    }
  };

  /** Applies one commit to every projection; true when all succeeded (the commit is then marked projected). */
  const applyCommit = async (commit: CommitDoc): Promise<boolean> => {
    const commitEvents = eventsOf(commit);
    let ok = true;
    for (const projection of projections) {
      try {
        await applyTo(projection, commit.stream, commitEvents);
      } catch (err) {
        ok = false;
        log.error(
          { err, projection: projection.name, stream: commit.stream, commit: commit._id },
          'projection failed; the commit stays unprojected until catch-up',
        );
      }
    }
    if (ok) await events.updateOne({ _id: commit._id }, { $set: { projected: true } });
    return ok;
  };

  /** reset + replay everything, for the given projections. Caller holds the serial lock. */
  const rebuildLocked = async (targets: Projection[]) => {
    if (targets.length === 0) return;
    for (const projection of targets) {
      await meta.deleteOne({ _id: markerId(projection.name) });
      await projection.reset();
      await checkpoints.deleteMany({ projection: projection.name });
    }
    const applied = new Map<string, number>();
    for await (const event of opts.readAll()) {
      if (event.version <= (applied.get(event.stream) ?? 0)) continue;
      for (const projection of targets) await projection.apply(event);
      applied.set(event.stream, event.version);
    }
    for (const projection of targets) {
      for (const [stream, version] of applied) await writeCheckpoint(projection.name, stream, version);
      await meta.replaceOne(
        { _id: markerId(projection.name) },
        { _id: markerId(projection.name), projection: projection.name, builtAt: new Date().toISOString() },
        { upsert: true },
      );
    }
    log.info({ projections: targets.map((p) => p.name), streams: applied.size }, 'projections rebuilt');
  };

  const catchUpLocked = async (): Promise<number> => {
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
        if (!(await applyCommit(commit))) {
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

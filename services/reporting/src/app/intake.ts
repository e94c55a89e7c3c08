import { type FileHandle, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebEventInput } from '@nudge/contracts';
import { type Logger, newIds } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import { chTime, type EventRow, webEventRow } from '../domain/rows';
import { BATCH_MAX, type EventWriter, measuredInsert } from '../events/ingest';

export interface IntakeUser {
  userId: string;
  email: string;
}

/** The spool lines (`events` rows, JSONEachRow) of one request's web events, with the request's one time and ids. */
export function webEventLines(
  ids: readonly string[],
  occurredAt: string,
  user: IntakeUser | undefined,
  events: readonly WebEventInput[],
): string {
  let lines = '';
  for (let i = 0; i < events.length; i++)
    lines += `${JSON.stringify(webEventRow(ids[i] as string, occurredAt, user, events[i] as WebEventInput))}\n`;
  return lines;
}

/** A JSON escape of a UTF-16 surrogate: text that may hold a lone one (JSON.stringify escapes only those). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** How long a group commit collects requests before its one write + fsync (ms). */
export const GROUP_COMMIT_WINDOW_MS = 2;
/** A group is written at once when it holds this many events, window or not. */
export const GROUP_COMMIT_MAX_EVENTS = 5_000;

/**
 * Web analytics intake with a durable spool: accepted events are appended (one JSON line each) to
 * `<dir>/current.ndjson` and fsync'ed before the caller answers. Group commit: the first request that finds the
 * spool idle opens a group; every request that arrives within GROUP_COMMIT_WINDOW_MS of it (or, when a write is
 * still running, until that write ends) joins; the group is then written with one append and one fdatasync
 * (earlier if it reaches GROUP_COMMIT_MAX_EVENTS), and each request of the group is answered only after that
 * fdatasync returned. A flusher moves the spool aside (`batch-<n>.ndjson`), inserts it into ClickHouse and deletes
 * it, every second or at 10,000 rows. A process killed after answering leaves the lines on disk; the next start
 * inserts them (event ids make a repeat harmless).
 */
export function createIntake(deps: {
  dir: string;
  analytics: AnalyticsStore;
  /** Inserts rows, setting aside those that can never go in (createEventWriter). */
  writer: EventWriter;
  log: Logger;
  clock?: () => Date;
  flushMs?: number;
  /** The group commit window (ms); default GROUP_COMMIT_WINDOW_MS. */
  groupWindowMs?: number;
}) {
  const clock = deps.clock ?? (() => new Date());
  const current = join(deps.dir, 'current.ndjson');
  let handle: FileHandle | undefined;
  const windowMs = deps.groupWindowMs ?? GROUP_COMMIT_WINDOW_MS;
  interface Waiter {
    lines: string;
    events: number;
    rotate: boolean;
    resolve: () => void;
    reject: (err: unknown) => void;
  }
  let pending: Waiter[] = [];
  let pendingEvents = 0;
  /** When the group now collecting received its first request. */
  let groupOpenedAt = 0;
  let writing: Promise<void> | undefined;
  /** Ends the current group's window early (it is full). */
  let closeWindow: (() => void) | undefined;
  let spooled = 0;
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let batchNo = 0;
  /** Groups written (one append + one fdatasync each) and the events they made durable. */
  const stats = { groups: 0, durableEvents: 0 };

  /** Writes one group: one append and one fdatasync for all its requests, then the rotation if one was asked. */
  const commit = async (group: Waiter[]) => {
    try {
      const writes = group.filter((p) => !p.rotate);
      if (writes.length > 0) {
        handle ??= await open(current, 'a');
        await handle.appendFile(
          writes.length === 1 ? (writes[0] as Waiter).lines : writes.map((p) => p.lines).join(''),
        );
        await handle.datasync();
        stats.groups += 1;
        for (const p of writes) stats.durableEvents += p.events;
      }
      if (group.some((p) => p.rotate) && handle) {
        await handle.close();
        handle = undefined;
        await rename(current, join(deps.dir, `batch-${Date.now()}-${++batchNo}.ndjson`));
      }
      for (const p of group) p.resolve();
    } catch (err) {
      for (const p of group) p.reject(err);
    }
  };

  /**
   * Groups run one at a time, in order. A group's window opens with its first request and closes windowMs later
   * (at once when the group is full or asks for a rotation); a group that formed while the previous one was being
   * written is written as soon as that write ends if its window has passed by then.
   */
  const writeLoop = async () => {
    while (pending.length > 0) {
      const wait = groupOpenedAt + windowMs - Date.now();
      if (wait > 0 && !pending.some((p) => p.rotate) && pendingEvents < GROUP_COMMIT_MAX_EVENTS) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          closeWindow = () => {
            clearTimeout(t);
            resolve();
          };
        });
        closeWindow = undefined;
      }
      const group = pending;
      pending = [];
      pendingEvents = 0;
      await commit(group);
    }
    writing = undefined;
  };

  const enqueue = (lines: string, events: number, rotate: boolean) =>
    new Promise<void>((resolve, reject) => {
      if (pending.length === 0) groupOpenedAt = Date.now();
      pending.push({ lines, events, rotate, resolve, reject });
      pendingEvents += events;
      if (rotate || pendingEvents >= GROUP_COMMIT_MAX_EVENTS) closeWindow?.();
      writing ??= writeLoop();
    });

  /** Per line: a line that is not a JSON object is set aside, so are the rows the writer finds bad. */
  const loadLines = async (text: string) => {
    const rows: EventRow[] = [];
    const notRows: string[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        row = undefined;
      }
      if (row && typeof row === 'object' && !Array.isArray(row)) rows.push(row as EventRow);
      else notRows.push(line);
    }
    await deps.writer.notRows('web', notRows, 'not a JSON row');
    await deps.writer.write(rows, 'web');
  };

  /**
   * The spool's lines are `events` rows already (JSONEachRow), so a file goes to ClickHouse as it is, without a parse
   * and a re-serialisation here; only a crash can leave a torn last line, which is cut. A file that holds a surrogate
   * escape (text that may not be valid Unicode, which the engine would refuse or store corrupted) or that the engine
   * refuses is loaded line by line, where what cannot go in is set aside and the rest goes in.
   */
  const loadFile = async (path: string) => {
    const text = await readFile(path, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) deps.log.warn({ path }, 'intake: skipped a torn spool line');
    const lines = text.slice(0, end);
    if (SURROGATE_ESCAPE.test(lines)) {
      await loadLines(lines);
    } else {
      try {
        await measuredInsert('web', lines.split('\n').length - 1, () =>
          deps.analytics.insertJsonLines('events', lines),
        );
      } catch (err) {
        deps.log.warn(
          { err, path },
          'intake: the spool file was refused as a whole; loading it line by line',
        );
        await loadLines(lines);
      }
    }
    await unlink(path);
  };

  /** Moves the spool aside and loads every batch file (older ones first). */
  const flushNow = async () => {
    if (spooled > 0) {
      spooled = 0;
      await enqueue('', 0, true);
    }
    const files = (await readdir(deps.dir)).filter((f) => f.startsWith('batch-')).sort();
    for (const file of files) await loadFile(join(deps.dir, file));
  };

  /** Loads everything accepted before this call (a flush already running may have started before it). */
  const flush = (): Promise<void> => {
    const run = (flushing ?? Promise.resolve()).catch(() => undefined).then(flushNow);
    const mine = run.finally(() => {
      if (flushing === mine) flushing = undefined;
    });
    flushing = mine;
    return mine;
  };

  return {
    async start() {
      await mkdir(deps.dir, { recursive: true });
      // What a previous process accepted but did not load: loaded by the first flush, in the background (a start
      // never waits for the analytics engine).
      await rename(current, join(deps.dir, `batch-${Date.now()}-0.ndjson`)).catch(() => undefined);
      flush().catch((err: unknown) => deps.log.error({ err }, 'intake: loading the spool failed; retrying'));
      timer = setInterval(() => {
        flush().catch((err: unknown) =>
          deps.log.error({ err }, 'intake: loading the spool failed; retrying'),
        );
      }, deps.flushMs ?? 1_000);
      timer.unref();
    },
    /** Stamps, spools (durably) and returns the accepted events' ids. */
    async accept(user: IntakeUser | undefined, events: WebEventInput[]): Promise<string[]> {
      const now = clock();
      const ids = newIds(events.length, now);
      const lines = webEventLines(ids, chTime(now), user, events);
      await enqueue(lines, ids.length, false);
      spooled += ids.length;
      if (spooled >= BATCH_MAX)
        void flush().catch((err: unknown) => deps.log.error({ err }, 'intake: flush failed'));
      return ids;
    },
    flush,
    /** Groups written so far and the events they made durable (for tests and diagnostics). */
    stats: () => ({ ...stats }),
    async stop() {
      if (timer) clearInterval(timer);
      await flush().catch((err: unknown) =>
        deps.log.warn({ err }, 'intake: final flush failed; the next start loads it'),
      );
      await writing;
      await handle?.close();
      handle = undefined;
    },
  };
}

export type Intake = ReturnType<typeof createIntake>;

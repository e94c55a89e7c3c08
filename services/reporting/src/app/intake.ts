import { type FileHandle, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebEventInput } from '@nudge/contracts';
import { type Logger, newId } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import { type EventRow, toEventRow } from '../domain/rows';
import { BATCH_MAX, writeEvents } from '../events/ingest';

export const WEB_EVENT_TYPE = 'reporting.WebEvent';

export interface IntakeUser {
  userId: string;
  email: string;
}

/**
 * Web analytics intake with a durable spool: accepted events are appended (one JSON line each) to
 * `<dir>/current.ndjson` and fsync'ed before the caller answers; concurrent calls share one write and one fsync.
 * A flusher moves the spool aside (`batch-<n>.ndjson`), inserts it into ClickHouse and deletes it, every second
 * or at 10,000 rows. A process killed after answering leaves the lines on disk; the next start inserts them
 * (event ids make a repeat harmless).
 */
export function createIntake(deps: {
  dir: string;
  analytics: AnalyticsStore;
  log: Logger;
  clock?: () => Date;
  flushMs?: number;
}) {
  const clock = deps.clock ?? (() => new Date());
  const current = join(deps.dir, 'current.ndjson');
  let handle: FileHandle | undefined;
  let pending: { lines: string; rotate: boolean; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let writing: Promise<void> | undefined;
  let spooled = 0;
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let batchNo = 0;

  /** Writes (and rotations) happen one at a time, in order: one append + one fsync per group of calls. */
  const writeLoop = async () => {
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      const writes = group.filter((p) => !p.rotate);
      try {
        if (writes.length > 0) {
          handle ??= await open(current, 'a');
          await handle.appendFile(writes.map((p) => p.lines).join(''));
          await handle.datasync();
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
    }
    writing = undefined;
  };

  const enqueue = (lines: string, rotate: boolean) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ lines, rotate, resolve, reject });
      writing ??= writeLoop();
    });

  const loadFile = async (path: string) => {
    const text = await readFile(path, 'utf8');
    const rows: EventRow[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        rows.push(JSON.parse(line) as EventRow);
      } catch {
        deps.log.warn({ path }, 'intake: skipped a torn spool line');
      }
    }
    await writeEvents(deps.analytics, rows, 'web');
    await unlink(path);
  };

  /** Moves the spool aside and loads every batch file (older ones first). */
  const flushNow = async () => {
    if (spooled > 0) {
      spooled = 0;
      await enqueue('', true);
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
      // What a previous process accepted but did not load.
      await rename(current, join(deps.dir, `batch-${Date.now()}-0.ndjson`)).catch(() => undefined);
      await flush();
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
      const rows = events.map((event) => {
        const id = newId(now);
        return toEventRow({
          id,
          type: WEB_EVENT_TYPE,
          stream: `webevent-${id}`,
          occurredAt: now.toISOString(),
          actor: user?.userId ?? null,
          data: {
            userId: user?.userId ?? null,
            userEmail: user?.email ?? null,
            eventType: event.eventType,
            eventValue: event.eventValue,
            metadata: event.metadata,
            receivedAt: now.toISOString(),
          },
        });
      });
      await enqueue(rows.map((r) => `${JSON.stringify(r)}\n`).join(''), false);
      spooled += rows.length;
      if (spooled >= BATCH_MAX)
        void flush().catch((err: unknown) => deps.log.error({ err }, 'intake: flush failed'));
      return rows.map((r) => r.id);
    },
    flush,
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

import { AsyncResource } from 'node:async_hooks';
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError, unavailable } from '@nudge/platform';
import { checkTable, parseRows } from './chdb-engine';
import type { ChildMessage, ParentMessage } from './chdb-protocol';
import { checkParams } from './params';
import type { AnalyticsStore, QueryParams } from './types';

/**
 * Built (`npm start`: scripts/build-standalone.ts bundles this module with chdb-server.ts beside it as
 * chdb-server.mjs), the child is plain JavaScript; from source, it is chdb-server.ts run through tsx.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const SERVER = fileURLToPath(
  new URL(FROM_SOURCE ? './chdb-server.ts' : './chdb-server.mjs', import.meta.url),
);
const STOPPED = 'The analytics engine stopped unexpectedly; please try again';

/** The child runs TypeScript like this process: through tsx (inherited when this process runs under it). */
const childExecArgv = (): string[] => {
  if (!FROM_SOURCE || process.execArgv.some((arg) => arg.includes('tsx'))) return process.execArgv;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [...process.execArgv, '--import', tsx];
};

type Waiter = { resolve: (message: ChildMessage) => void; reject: (err: Error) => void };

export interface ChdbStoreOptions {
  /** Called when the engine's process ended without being asked to (it is restarted at once). */
  onCrash?: (info: { code: number | null; signal: NodeJS.Signals | null }) => void;
  /**
   * Stops the engine's process after this many ms without a call in progress, to give its memory back (about
   * 270 MB, most of it the engine's library); the next call starts it again (about a second). 0 or absent: never.
   */
  idleStopMs?: number;
  /** Called when the engine's process was stopped for being idle. */
  onIdleStop?: () => void;
}

/**
 * chDB (ClickHouse as a library) in its own process: `openChdbStore` forks chdb-server.ts, which owns the chDB
 * session on `dir`, and sends it every statement over IPC; results come back as JSONEachRow text and are parsed
 * here. So no query ever runs on this process's event loop or in its memory, and a crash of the native engine
 * does not take the services down: the calls in flight fail with a 503 (reads are retried once on the new
 * process), and the engine is started again on the same directory. `close()` stops it (graceful shutdown).
 * With `idleStopMs`, a process that had no call for that long is stopped (asked to close, as on shutdown) and the
 * next call starts a new one once the old one has exited (one engine on the directory at a time).
 */
export async function openChdbStore(dir: string, opts: ChdbStoreOptions = {}): Promise<AnalyticsStore> {
  let closed = false;
  let nextId = 1;
  /** The engine's process, once it said it is ready (undefined: none yet, or it ended). */
  let live: Promise<ChildProcess> | undefined;
  const waiting = new Map<number, Waiter>();
  let lastCrash = 0;
  /** The engine's process that answers now (set once it is ready, unset when it ended). */
  let current: ChildProcess | undefined;
  /** Calls in progress (a stream counts until it ended): the engine is not idle while any is. */
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  /** An idle engine being stopped: a new one starts only once it has exited. */
  let retiring: Promise<void> | undefined;
  const idleStopMs = opts.idleStopMs ?? 0;
  /** The idle stop runs in the context of the store's opening, not of the request whose call armed it (its logs). */
  const opening = new AsyncResource('nudge.analytics-idle-stop');

  const spawn = (delayMs: number) =>
    new Promise<ChildProcess>((resolve, reject) => {
      const start = () => {
        const child = fork(SERVER, [dir], {
          serialization: 'advanced',
          execArgv: childExecArgv(),
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        let ready = false;
        child.on('message', (message: ChildMessage) => {
          if (message.kind === 'ready') {
            ready = true;
            current = child;
            resolve(child);
          } else if (message.kind === 'fatal') {
            reject(new Error(`the analytics engine did not open ${dir}: ${message.error}`));
          } else {
            const waiter = waiting.get(message.id);
            waiting.delete(message.id);
            waiter?.resolve(message);
          }
        });
        child.once('exit', (code, signal) => {
          if (!ready) {
            reject(new Error(`the analytics engine exited while starting (code ${code}, signal ${signal})`));
            live = undefined;
            return;
          }
          if (current !== child) return; // an idle engine that was asked to stop
          current = undefined;
          live = undefined;
          const calls = [...waiting.values()];
          waiting.clear();
          for (const waiter of calls) waiter.reject(unavailable(STOPPED));
          if (closed) return;
          opts.onCrash?.({ code, signal });
          // Start the next one now (a crash loop is slowed down to one start a second).
          const now = Date.now();
          const delay = now - lastCrash < 5_000 ? 1_000 : 0;
          lastCrash = now;
          ensure(delay).then(armIdle, () => undefined);
        });
      };
      if (delayMs > 0) setTimeout(start, delayMs);
      else start();
    });

  const ensure = (delayMs = 0): Promise<ChildProcess> => {
    if (closed) return Promise.reject(unavailable('The analytics engine is closed'));
    if (!live) {
      const started = retiring ? retiring.then(() => spawn(delayMs)) : spawn(delayMs);
      live = started;
      started.catch(() => {
        if (live === started) live = undefined;
      });
    }
    return live;
  };

  /** Asks the engine's process to close (as on shutdown), SIGKILLs it after 10 s; resolves once it exited. */
  const stopChild = async (child: ChildProcess): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await ask(child, { op: 'close', id: nextId++ }).catch(() => undefined);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  /** Stops an engine that had no call for idleStopMs (a call that arrived meanwhile keeps it). */
  const stopIfIdle = () => {
    idleTimer = undefined;
    const child = current;
    if (closed || inFlight > 0 || !child) return;
    current = undefined;
    live = undefined;
    const stopped = stopChild(child).finally(() => {
      if (retiring === stopped) retiring = undefined;
    });
    retiring = stopped;
    opts.onIdleStop?.();
  };

  /** With no call in progress, (re)starts the idle countdown. */
  const armIdle = () => {
    if (idleStopMs <= 0 || inFlight > 0 || closed) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => opening.runInAsyncScope(stopIfIdle), idleStopMs);
    idleTimer.unref();
  };

  /** Counts a call in progress for as long as `work` runs; the last one to end arms the idle stop. */
  const busy = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    try {
      return await work();
    } finally {
      inFlight -= 1;
      armIdle();
    }
  };

  /** Sends one request and waits for its answer (a chunk, a result, the end of a stream). */
  const ask = (child: ChildProcess, message: ParentMessage): Promise<ChildMessage> =>
    new Promise<ChildMessage>((resolve, reject) => {
      if (!child.connected) {
        reject(unavailable(STOPPED));
        return;
      }
      waiting.set(message.id, {
        resolve: (answer) => (answer.kind === 'error' ? reject(new Error(answer.error)) : resolve(answer)),
        reject,
      });
      child.send(message, (err) => {
        if (err && waiting.delete(message.id)) reject(unavailable(STOPPED));
      });
    });

  const textOf = (answer: ChildMessage) => (answer.kind === 'result' ? answer.text : '');
  const stopped = (err: unknown) => err instanceof AppError && err.code === 'unavailable';

  /** One statement; a read (retry) is asked again, once, of the next process when the engine stopped under it. */
  const run = (sql: string, params: QueryParams = {}, retry = false): Promise<string> => {
    checkParams(params);
    return busy(async () => {
      try {
        return textOf(await ask(await ensure(), { op: 'run', id: nextId++, sql, params }));
      } catch (err) {
        if (!retry || !stopped(err) || closed) throw err;
        return textOf(await ask(await ensure(), { op: 'run', id: nextId++, sql, params }));
      }
    });
  };

  const insertLines = async (table: string, text: string) => {
    checkTable(table);
    if (text.trim() === '') return;
    await busy(async () => {
      await ask(await ensure(), { op: 'insert', id: nextId++, table, text });
    });
  };

  await ensure();
  await run('SELECT 1');
  return {
    kind: 'chdb',
    async exec(sql, params) {
      await run(sql, params);
    },
    async query<T>(sql: string, params?: QueryParams) {
      return parseRows<T>(await run(sql, params, true));
    },
    async *stream<T>(sql: string, params: QueryParams = {}) {
      checkParams(params);
      // Counted as one call from its start to its end (the idle stop waits for the reader between chunks).
      let ended: () => void = () => undefined;
      void busy(() => new Promise<void>((resolve) => (ended = resolve)));
      let finished = false;
      try {
        const child = await ensure();
        const id = nextId++;
        let next = ask(child, { op: 'stream', id, sql, params });
        try {
          for (;;) {
            const answer = await next;
            if (answer.kind !== 'chunk') break;
            const rows = parseRows<T>(answer.text);
            // The engine reads its next chunk only when this one is taken (backpressure).
            next = ask(child, { op: 'more', id });
            yield rows;
          }
          finished = true;
        } finally {
          if (!finished) {
            waiting.delete(id);
            if (child.connected) child.send({ op: 'cancel', id } satisfies ParentMessage);
          }
        }
      } finally {
        ended();
      }
    },
    async insert(table, rows) {
      checkTable(table);
      if (rows.length === 0) return;
      await insertLines(table, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    },
    insertJsonLines: insertLines,
    async ping() {
      // An engine stopped for being idle is not started for a readiness probe: the next real call starts it.
      if (!live && !closed && idleStopMs > 0) return;
      await run('SELECT 1', {}, true);
    },
    async engineProcess() {
      const child = current;
      if (!child) return null;
      const answer = await busy(() => ask(child, { op: 'stats', id: nextId++ }));
      const { rss } = JSON.parse(textOf(answer)) as { rss: number };
      return { pid: child.pid ?? 0, rssBytes: rss };
    },
    async close() {
      if (closed) return;
      const starting = live;
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      await retiring;
      const child = await starting?.catch(() => undefined);
      if (child) await stopChild(child);
    },
  };
}

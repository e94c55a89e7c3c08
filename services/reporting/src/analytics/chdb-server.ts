// The analytics engine's own process: forked by chdb.ts (child_process.fork, IPC), it owns the chDB session on
// the directory given as its argument and answers the parent's requests (protocol in chdb-protocol.ts). Its memory,
// its native code and a crash of the engine stay here; the services' event loop never runs a query.
import { type ChdbEngine, openChdbEngine } from './chdb-engine';
import type { ChildMessage, ParentMessage } from './chdb-protocol';

const send = (message: ChildMessage) => {
  if (process.connected) process.send?.(message);
};
const failure = (err: unknown) => (err instanceof Error ? err.message : String(err));

const dir = process.argv[2];
if (!dir || !process.send) {
  process.stderr.write('chdb-server: run by chdb.ts (fork) with the data directory as its argument\n');
  process.exit(2);
}

let engine: ChdbEngine;
try {
  engine = await openChdbEngine(dir);
} catch (err) {
  send({ kind: 'fatal', error: failure(err) });
  process.exit(1);
}

/** Streams in progress: each waits for the parent's `more` before it reads its next chunk (backpressure). */
const streams = new Map<number, { next: () => void; cancel: () => void }>();

const runStream = async (id: number, sql: string, params: Record<string, unknown>) => {
  const chunks = engine.stream(sql, params);
  let cancelled = false;
  let wake: (() => void) | undefined;
  streams.set(id, {
    next: () => wake?.(),
    cancel: () => {
      cancelled = true;
      wake?.();
    },
  });
  try {
    for await (const text of chunks) {
      if (cancelled) break;
      const asked = new Promise<void>((resolve) => (wake = resolve));
      send({ kind: 'chunk', id, text });
      await asked;
      if (cancelled) break;
    }
    send({ kind: 'done', id });
  } catch (err) {
    send({ kind: 'error', id, error: failure(err) });
  } finally {
    streams.delete(id);
    await chunks.return(undefined).catch(() => undefined);
  }
};

const handle = async (message: ParentMessage) => {
  switch (message.op) {
    case 'run':
      try {
        send({ kind: 'result', id: message.id, text: await engine.run(message.sql, message.params) });
      } catch (err) {
        send({ kind: 'error', id: message.id, error: failure(err) });
      }
      return;
    case 'insert':
      try {
        await engine.insertText(message.table, message.text);
        send({ kind: 'result', id: message.id, text: '' });
      } catch (err) {
        send({ kind: 'error', id: message.id, error: failure(err) });
      }
      return;
    case 'stream':
      await runStream(message.id, message.sql, message.params);
      return;
    case 'more':
      streams.get(message.id)?.next();
      return;
    case 'cancel':
      streams.get(message.id)?.cancel();
      return;
    case 'stats':
      send({ kind: 'result', id: message.id, text: JSON.stringify({ rss: process.memoryUsage.rss() }) });
      return;
    case 'close':
      for (const stream of streams.values()) stream.cancel();
      engine.close();
      send({ kind: 'result', id: message.id, text: '' });
      process.disconnect();
      return;
  }
};

process.on('message', (message: ParentMessage) => {
  void handle(message);
});
// The parent is gone (exited or crashed): nothing will read the answers.
process.on('disconnect', () => {
  engine.close();
  process.exit(0);
});
send({ kind: 'ready', pid: process.pid });

// The standalone process of a bench run, in its own process (forked by bench/standalone-child.ts), so that its
// resident memory and CPU time are its own: the load generator (autocannon and its worker) and the ceiling's bare
// express app stay in the bench process. It starts exactly what `npm start` starts (startStandalone, configured by
// the environment the bench gives it) and answers the bench over IPC for what HTTP does not give: reporting's
// analytics store (the 10M-event seed uses ClickHouse's own generators), a CPU profile of a measured run, and a
// breakdown of its memory.
import { readFile } from 'node:fs/promises';
import { embeddedStoreStats } from '@nudge/platform';
import { startStandalone } from '../deploy/standalone/src/index';
import { type CpuProfile, startCpuProfile } from './cpu-profile';
import type { HostAnswer, HostRequest, MemoryBreakdown } from './standalone-protocol';

const send = (message: HostAnswer) => {
  if (process.connected) process.send?.(message);
};
const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

if (!process.send) {
  process.stderr.write('standalone-host: forked by bench/standalone-child.ts (IPC)\n');
  process.exit(2);
}

/** V8's heap before and after a full GC, resident memory by kind, and the embedded collections holding the most. */
async function memoryBreakdown(dataDir: string): Promise<MemoryBreakdown> {
  const usage = () =>
    Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, mb(v)])) as Record<
      string,
      number
    >;
  const before = usage();
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const afterGc = usage();
  // Resident memory by kind (Linux): anonymous (heaps, native allocations) and file-backed (code).
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  for (const key of ['RssAnon', 'RssFile', 'RssShmem']) {
    const kb = Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
    if (Number.isFinite(kb)) afterGc[key] = mb(kb * 1024);
  }
  const stats = embeddedStoreStats().filter((c) => c.dir.startsWith(dataDir));
  const collections = stats
    .map((c) => ({
      collection: `${c.dir.slice(dataDir.length + 1) || '.'}/${c.name}`,
      docs: c.docs,
      jsonMb: mb(c.jsonBytes),
    }))
    .sort((a, b) => b.jsonMb - a.jsonMb);
  return {
    before,
    afterGc,
    collections: collections.slice(0, 12),
    totalDocs: stats.reduce((n, c) => n + c.docs, 0),
    totalJsonMb: mb(stats.reduce((n, c) => n + c.jsonBytes, 0)),
  };
}

let app: Awaited<ReturnType<typeof startStandalone>>;
try {
  app = await startStandalone();
} catch (err) {
  send({ kind: 'failed', error: describe(err) });
  process.exit(1);
}

let profiler: CpuProfile | undefined;

const handle = async (request: HostRequest): Promise<unknown> => {
  switch (request.op) {
    case 'exec':
    case 'query': {
      if (!app.analytics) throw new Error('the standalone process has no analytics store');
      return request.op === 'exec'
        ? app.analytics.exec(request.sql, request.params)
        : app.analytics.query(request.sql, request.params);
    }
    case 'profile-start':
      profiler = await startCpuProfile();
      return null;
    case 'profile-stop': {
      const running = profiler;
      profiler = undefined;
      return running ? running.stop(request.file) : null;
    }
    case 'memory':
      return memoryBreakdown(app.config.DATA_DIR);
    case 'close':
      await app.close();
      return null;
  }
};

process.on('message', (request: HostRequest) => {
  handle(request).then(
    (value) => send({ kind: 'answer', id: request.id, value }),
    (err: unknown) => send({ kind: 'answer', id: request.id, error: describe(err) }),
  );
});
// The bench is gone: stop as `npm start` does on SIGTERM (stores closed), then exit.
process.on('disconnect', () => {
  app.close().finally(() => process.exit(0));
});
send({ kind: 'ready', url: app.url, metricsUrl: app.metricsUrl, analytics: Boolean(app.analytics) });

// Starts the standalone process of a bench run as a child process (bench/standalone-host.ts, built and run as
// `npm start` runs deploy/standalone/src/main.ts: bundled by scripts/build-standalone.ts, node with the start script's
// flags) and talks to it over IPC.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { standaloneNodeFlags } from '../deploy/standalone/src/node-flags';
import { buildStandalone } from '../scripts/build-standalone';
import type { CpuProfile } from './cpu-profile';
import type { HostAnswer, HostRequest, MemoryBreakdown, QueryParams } from './standalone-protocol';

/** Distributes Omit over the request union (each op keeps its own fields). */
type Ask = HostRequest extends infer R ? (R extends HostRequest ? Omit<R, 'id'> : never) : never;

export interface StandaloneChild {
  pid: number;
  url: string;
  metricsUrl: string;
  /** Reporting's analytics store, reached through the child (for seeding with ClickHouse's own generators). */
  analytics?: {
    exec(sql: string, params?: QueryParams): Promise<void>;
    query<T>(sql: string, params?: QueryParams): Promise<T[]>;
  };
  /** Starts a CPU profile of the child's main thread; stop(file) writes it (the child writes the file). */
  startCpuProfile(): Promise<CpuProfile>;
  memory(): Promise<MemoryBreakdown>;
  close(): Promise<void>;
}

/**
 * Forks the standalone process with `env` added to this process's environment (DATA_DIR, PORT, ...) and resolves once
 * its gateway listens. `nodeFlags` go before the script, as `node <flags> <script>` (default: `npm start`'s).
 */
export async function startStandaloneChild(
  env: Record<string, string>,
  nodeFlags: string[] = standaloneNodeFlags(),
): Promise<StandaloneChild> {
  const host = join(await buildStandalone(), 'standalone-host.mjs');
  const child: ChildProcess = fork(host, [], {
    env: { ...process.env, ...env },
    execArgv: nodeFlags,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let exited = false;
  const ready = new Promise<Extract<HostAnswer, { kind: 'ready' }>>((resolve, reject) => {
    child.on('message', (message: HostAnswer) => {
      if (message.kind === 'ready') resolve(message);
      else if (message.kind === 'failed') reject(new Error(message.error));
      else {
        const waiter = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.value);
      }
    });
    child.once('exit', (code, signal) => {
      exited = true;
      const error = new Error(`the standalone process exited (code ${code}, signal ${signal})`);
      reject(error);
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    });
  });
  const ask = <T>(request: Ask): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exited || !child.connected) return reject(new Error('the standalone process is not running'));
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ ...request, id } as HostRequest);
    });
  let started: Extract<HostAnswer, { kind: 'ready' }>;
  try {
    started = await ready;
  } catch (err) {
    if (!exited) child.kill('SIGKILL');
    throw err;
  }
  return {
    pid: child.pid ?? 0,
    url: started.url,
    metricsUrl: started.metricsUrl,
    ...(started.analytics
      ? {
          analytics: {
            exec: (sql, params) => ask<void>({ op: 'exec', sql, ...(params ? { params } : {}) }),
            query: <T>(sql: string, params?: QueryParams) =>
              ask<T[]>({ op: 'query', sql, ...(params ? { params } : {}) }),
          },
        }
      : {}),
    async startCpuProfile() {
      await ask({ op: 'profile-start' });
      return { stop: (file: string) => ask<void>({ op: 'profile-stop', file }) };
    },
    memory: () => ask<MemoryBreakdown>({ op: 'memory' }),
    async close() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ask({ op: 'close' }).catch(() => undefined);
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

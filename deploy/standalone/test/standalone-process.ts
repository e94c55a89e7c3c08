import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildStandalone } from '../../../scripts/build-standalone';
import { standaloneNodeFlags } from '../src/node-flags';

export interface StandaloneProcess {
  /** The gateway's base URL. */
  url: string;
  pid: number;
  /** Resident memory of the process, in bytes (Linux: /proc/<pid>/status). */
  rss(): Promise<number>;
  /** True while the process runs. */
  alive(): boolean;
  /** What the process printed to stderr (its last 64 kB). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * `npm start` as a process of its own (what a user runs, not the test's own process): node with the start script's
 * flags on deploy/standalone/src/main.ts as `npm start` builds it (scripts/build-standalone.ts, built once per test
 * process), `env` on top of this process's environment; resolves once it listens.
 */
export async function spawnStandalone(env: Record<string, string>): Promise<StandaloneProcess> {
  const main = join(await buildStandalone(), 'main.mjs');
  const proc: ChildProcess = spawn(process.execPath, [...standaloneNodeFlags(), main], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: process.env.STANDALONE_LOG_LEVEL ?? 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-65_536);
  });
  let exited = false;
  proc.once('exit', () => {
    exited = true;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the standalone process did not start: ${err}`)),
      120_000,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (process.env.STANDALONE_STDOUT) appendFileSync(process.env.STANDALONE_STDOUT, chunk);
      const found = out.match(/running at (http:\/\/localhost:\d+)/);
      if (found) {
        clearTimeout(timer);
        resolve((found[1] as string).replace('localhost', '127.0.0.1'));
      }
    };
    proc.stdout?.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the standalone process exited with ${code}: ${err}`));
    });
  });
  return {
    url,
    pid: proc.pid as number,
    async rss() {
      const status = await readFile(`/proc/${proc.pid}/status`, 'utf8');
      return Number(status.match(/VmRSS:\s+(\d+)\s+kB/)?.[1] ?? 0) * 1024;
    },
    alive: () => !exited,
    stderr: () => err,
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

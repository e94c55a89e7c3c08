// What every engine needs to run as a child process: a free port, a log file, a wait until it answers, a clean stop,
// and a watchdog so that an engine never outlives the process that started it (a test run killed with SIGKILL included).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port free on 127.0.0.1 right now (the engine binds it a moment later; a start that loses the race is retried). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * A new temporary folder for an engine's data, owned by this process. Folders of the same prefix whose owner is gone
 * (a run killed before it could stop its engines) are deleted first.
 */
export async function engineDir(prefix: string): Promise<string> {
  for (const entry of await readdir(tmpdir()).catch(() => [] as string[])) {
    if (!entry.startsWith(prefix)) continue;
    const dir = join(tmpdir(), entry);
    const owner = Number(await readFile(join(dir, 'owner.pid'), 'utf8').catch(() => ''));
    if (owner > 0 && !alive(owner)) await rm(dir, { recursive: true, force: true });
  }
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(dir, 'owner.pid'), String(process.pid));
  return dir;
}

export interface EngineProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Whether the process is still running. */
  running(): boolean;
  /** The last lines of its log, for an error message. */
  tail(lines?: number): string;
}

/** Children that must not outlive this process: killed on its exit, whatever the cause. */
const live = new Set<ChildProcess>();
let exitHook = false;

/**
 * Starts `command` with its stdout and stderr appended to `logFile`. A watchdog shell kills it with SIGKILL once this
 * process is gone (it polls every second and exits with the child), so a killed test run leaves no engine behind.
 */
export function startProcess(
  command: string,
  args: string[],
  opts: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string },
): EngineProcess {
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  live.add(child);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (err) => {
      live.delete(child);
      resolve(err.message);
    });
  });
  if (child.pid !== undefined) {
    const watchdog = spawn(
      'sh',
      [
        '-c',
        'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -0 "$2" 2>/dev/null && kill -9 "$2"',
        'engine-watchdog',
        String(process.pid),
        String(child.pid),
      ],
      { stdio: 'ignore', detached: true },
    );
    watchdog.unref();
  }
  return {
    child,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    tail(lines = 20) {
      try {
        return readFileSync(opts.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
  };
}

/** Sends SIGTERM, and SIGKILL after graceMs; resolves once the process has exited. */
export async function stopProcess(proc: EngineProcess, graceMs = 15_000): Promise<void> {
  if (!proc.running()) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** SIGKILL, as a crash would: resolves once the process has exited. */
export async function killProcess(proc: EngineProcess): Promise<void> {
  if (!proc.running()) return;
  proc.child.kill('SIGKILL');
  await proc.exited;
}

/**
 * Polls `probe` until it resolves true; fails when the process exits first or after timeoutMs, with the log's tail.
 */
export async function waitUntilReady(
  what: string,
  proc: EngineProcess,
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.running())
      throw new Error(`${what} exited before it answered (${await proc.exited}):\n${proc.tail()}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${what} did not answer within ${timeoutMs} ms:\n${proc.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs a command to its end; rejects with its output when it fails. */
export async function run(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await Promise.race([
    once(child, 'exit'),
    once(child, 'error').then(([err]) => {
      throw new Error(`${command}: ${(err as Error).message}`);
    }),
  ])) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}):\n${output.slice(-4000)}`);
  return output;
}

/** Whether `command` can be run here (found on PATH and answers `args`). */
export async function available(command: string, args = ['--version']): Promise<boolean> {
  return run(command, args).then(
    () => true,
    () => false,
  );
}

/** A started engine: stop it cleanly, crash it, or start it again after a crash. */
export interface Supervised {
  /** Stops it cleanly (SIGTERM) and deletes its folder. */
  stop(): Promise<void>;
  /** kill -9: it dies as in a crash; its folder stays for restart(). */
  kill(): Promise<void>;
  /** Starts it again after kill(), on the same ports and data. */
  restart(): Promise<void>;
}

/**
 * Starts an engine (`command args`, logging to `logFile`) and resolves once `probe` answers true. A first start that
 * fails kills it and deletes `dir`.
 */
export async function supervise(opts: {
  what: string;
  dir: string;
  command: string;
  args: string[];
  logFile: string;
  probe: () => Promise<boolean>;
  readyTimeoutMs: number;
}): Promise<Supervised> {
  let proc: EngineProcess | undefined;
  const launch = async () => {
    proc = startProcess(opts.command, opts.args, { logFile: opts.logFile });
    await waitUntilReady(opts.what, proc, opts.probe, opts.readyTimeoutMs);
  };
  try {
    await launch();
  } catch (err) {
    if (proc) await killProcess(proc);
    await rm(opts.dir, { recursive: true, force: true });
    throw err;
  }
  return {
    async stop() {
      if (proc) await stopProcess(proc);
      await rm(opts.dir, { recursive: true, force: true });
    },
    async kill() {
      if (proc) await killProcess(proc);
    },
    async restart() {
      if (proc?.running())
        throw new Error(`${opts.what}: restart() while it runs; kill() or stop() it first`);
      await launch();
    },
  };
}

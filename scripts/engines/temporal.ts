// Temporal for tests and a developer's machine: the CLI's development server (`temporal server start-dev`) on
// 127.0.0.1, its state in a SQLite file in a temporary folder (so a restart keeps workflows and schedules), and the
// path of the time-skipping test server that the TypeScript SDK starts itself (`server.executable: { type:
// 'existing-path' }`: it never downloads anything).
import { join } from 'node:path';
import { install } from './install';
import { engineDir, freePort, type Supervised, supervise } from './process';
import { TEMPORAL_CLI_VERSION } from './versions';

export interface TemporalServer extends Supervised {
  readonly version: string;
  /** host:port of the frontend (gRPC): TEMPORAL_ADDRESS. */
  readonly address: string;
  readonly namespace: 'default';
  /** The folder of its database and its log (server.log). */
  readonly dir: string;
}

export async function startTemporal(opts: { readyTimeoutMs?: number } = {}): Promise<TemporalServer> {
  const { home } = await install('temporal');
  const binary = join(home, 'bin', 'temporal');
  const dir = await engineDir('nudge-temporal-');
  const [port, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const address = `127.0.0.1:${port}`;
  const args = [
    'server',
    'start-dev',
    '--headless',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--http-port',
    String(httpPort),
    '--metrics-port',
    String(metricsPort),
    '--db-filename',
    join(dir, 'temporal.db'),
    '--log-level',
    'warn',
  ];
  // The frontend's HTTP API answers a namespace once the server serves it.
  const answers = async () =>
    (
      await fetch(`http://127.0.0.1:${httpPort}/api/v1/namespaces/default`, {
        signal: AbortSignal.timeout(2_000),
      })
    ).ok;

  const engine = await supervise({
    what: `the Temporal dev server ${TEMPORAL_CLI_VERSION} on ${address}`,
    dir,
    command: binary,
    args,
    logFile: join(dir, 'server.log'),
    probe: answers,
    readyTimeoutMs: opts.readyTimeoutMs ?? 60_000,
  });
  return { version: TEMPORAL_CLI_VERSION, address, namespace: 'default', dir, ...engine };
}

/** The time-skipping test server's binary, installed if missing (the SDK starts one per TestWorkflowEnvironment). */
export async function temporalTestServerPath(): Promise<string> {
  const { home } = await install('temporal-test-server');
  return join(home, 'bin', 'temporal-test-server');
}

// The container topology on one machine: every process of deploy/k8s/base as its own OS process, with the entry
// command and the environment its manifest gives it (manifests.ts), on a Kafka broker and a Temporal server of the
// caller's. The setup Job's steps run first, to their end; then the five services and the worker; then the gateway.
// Used by the distributed test tier (test/distributed) and the benches: start, stop, kill -9 and restart one process,
// wait for readiness, read each process's log.
//
// What differs from a cluster, and only this (each named in the configuration: DISTRIBUTED_TEST=on):
// - addresses: each process listens on free loopback ports; the *_URL settings, PUBLIC_URL, KAFKA_BROKERS and
//   TEMPORAL_ADDRESS point at them;
// - the engines this machine has no registry package for: documents on each process's own embedded store under its
//   DATA_DIR (no MongoDB), analytics on reporting's chDB (no ClickHouse server; the setup Job's migration runs on
//   reporting's folder before reporting starts), mail captured under DATA_DIR/outbox (no SMTP server);
// - the Secrets (deploy/k8s/secrets.example.env): generated once per topology.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type EngineProcess,
  freePort,
  killProcess,
  run,
  startProcess,
  stopProcess,
  waitUntilReady,
} from '../engines/process';
import {
  baseConfig,
  type ManifestContainer,
  PROCESSES,
  type ProcessName,
  ROOT,
  readManifests,
  resolveEnv,
  SERVICES,
} from './manifests';

export interface TopologyOptions {
  /** A folder of this topology's own: each process's DATA_DIR and log are under it. */
  dir: string;
  kafkaBrokers: string[];
  temporalAddress: string;
  /** Settings added to (or replacing) the ConfigMap's, for every process (say REMINDER_BATCH_SIZE). */
  config?: Record<string, string>;
  /** Settings of one process only, applied last. */
  env?: Partial<Record<ProcessName, Record<string, string>>>;
  /** Processes not started (say the worker, for a test that starts it itself). */
  without?: ProcessName[];
  /** Milliseconds a process gets to answer its readiness probe (default 180 s: tsx compiles on a busy machine). */
  readyTimeoutMs?: number;
}

export interface Topology {
  /** The gateway: where a browser (and a test) sends its requests. */
  readonly url: string;
  /** A process's own HTTP address (the services' internal API, the worker's probes). */
  urlOf(name: ProcessName): string;
  /** A process's Prometheus scrape address (METRICS_PORT). */
  metricsUrlOf(name: ProcessName): string;
  /** A process's DATA_DIR (its embedded store, its captured messages under outbox/). */
  dataDirOf(name: ProcessName): string;
  /** The environment a process runs with. */
  envOf(name: ProcessName): Record<string, string>;
  /** The secrets the processes share (INTERNAL_SERVICE_TOKEN, the token keys, LINK_TOKEN_SECRET). */
  readonly secrets: Record<string, string>;
  running(name: ProcessName): boolean;
  /** Starts a process that is not running, and waits for it to be ready. */
  start(name: ProcessName): Promise<void>;
  /** SIGTERM (a clean stop, as Kubernetes stops a pod); resolves once it has exited. */
  stop(name: ProcessName): Promise<void>;
  /** kill -9, as a crash; resolves once it has exited. */
  kill(name: ProcessName): Promise<void>;
  /** Resolves once the process answers its readiness probe. */
  waitReady(name: ProcessName, timeoutMs?: number): Promise<void>;
  /** The last lines of a process's log (stdout and stderr). */
  log(name: ProcessName, lines?: number): string;
  /** Every running process's log tail, for a failure message. */
  logs(lines?: number): string;
  /** Stops every process (SIGTERM, then SIGKILL after a grace). Leaves `dir` to the caller. */
  close(): Promise<void>;
}

/** The Secrets of deploy/k8s/secrets.example.env, made for one topology; the engines' credentials are empty. */
export function generateSecrets(): Record<string, string> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    TOKEN_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    TOKEN_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    INTERNAL_SERVICE_TOKEN: randomBytes(32).toString('base64url'),
    LINK_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    MONGODB_URL: '',
    SMTP_URL: '',
    CLICKHOUSE_PASSWORD: '',
  };
}

/** The probe each process's readiness is read from (what its readinessProbe asks). */
const PROBE: Record<ProcessName, string> = {
  auth: '/readyz',
  content: '/readyz',
  engagement: '/readyz',
  billing: '/readyz',
  reporting: '/readyz',
  workflows: '/readyz',
  gateway: '/healthz',
};

const answers = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  await res.body?.cancel();
  return res.ok;
};

export async function startTopology(opts: TopologyOptions): Promise<Topology> {
  const manifests = readManifests();
  const secrets = generateSecrets();
  const readyTimeoutMs = opts.readyTimeoutMs ?? 180_000;
  const ports = {} as Record<ProcessName, { http: number; metrics: number }>;
  for (const name of PROCESSES) ports[name] = { http: await freePort(), metrics: await freePort() };
  const local = (name: ProcessName) => `http://127.0.0.1:${ports[name].http}`;
  const dataDir = (name: ProcessName) => join(opts.dir, name);

  const config: Record<string, string> = {
    ...baseConfig(),
    KAFKA_BROKERS: opts.kafkaBrokers.join(','),
    TEMPORAL_ADDRESS: opts.temporalAddress,
    CLICKHOUSE_URL: '',
    PUBLIC_URL: local('gateway'),
    ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_URL`, local(s)])),
    LOG_LEVEL: process.env.TOPOLOGY_LOG_LEVEL ?? 'warn',
    // The substitutions of a machine without MongoDB, a ClickHouse server or an SMTP server (see the header).
    NODE_ENV: 'development',
    DISTRIBUTED_TEST: 'on',
    DOCUMENT_STORE: 'embedded',
    ANALYTICS_STORE: 'embedded',
    MAIL_TRANSPORT: 'capture',
    ...opts.config,
  };
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const envs = {} as Record<ProcessName, Record<string, string>>;
  for (const name of PROCESSES) {
    const env = resolveEnv(manifests.processes[name], config, secrets);
    envs[name] = {
      ...baseEnv,
      ...env,
      // Settings the manifests give a value of their own for (a port, the DATA_DIR volume) or leave to the image.
      ...(name === 'gateway'
        ? { PORT: String(ports[name].http) }
        : { SERVICE_PORT: String(ports[name].http) }),
      METRICS_PORT: String(ports[name].metrics),
      DATA_DIR: dataDir(name),
      // One key store for the deployment, as the MongoDB of containers is: what auth seals, billing must open.
      READER_KEYS_DIR: join(opts.dir, 'reader-keys'),
      // The substitution variables, for every process (the manifests' own reach only some of them).
      NODE_ENV: config.NODE_ENV as string,
      DISTRIBUTED_TEST: config.DISTRIBUTED_TEST as string,
      ...(env.DOCUMENT_STORE ? { DOCUMENT_STORE: 'embedded' } : {}),
      ...(env.ANALYTICS_STORE ? { ANALYTICS_STORE: 'embedded' } : {}),
      ...(name === 'gateway' ? { WEB_DIST: join(opts.dir, 'no-web') } : {}),
      ...opts.env?.[name],
    };
  }
  const logFile = (name: string) => join(opts.dir, `${name.replace('/', '-')}.log`);
  const command = (c: ManifestContainer) => {
    const [bin, ...args] = c.command;
    if (bin !== 'node') throw new Error(`${c.name}: command ${c.command.join(' ')} is not a node entry`);
    return { bin: process.execPath, args };
  };

  await mkdir(opts.dir, { recursive: true });
  for (const name of PROCESSES) await mkdir(dataDir(name), { recursive: true });

  // The setup Job: its steps in order, each to its end. Its ClickHouse step migrates reporting's chDB folder.
  for (const step of manifests.setup) {
    const env = {
      ...baseEnv,
      ...resolveEnv(step, config, secrets),
      NODE_ENV: config.NODE_ENV as string,
      DISTRIBUTED_TEST: config.DISTRIBUTED_TEST as string,
      DATA_DIR: dataDir('reporting'),
      ...(step.env.some((e) => e.name === 'ANALYTICS_STORE') ? { ANALYTICS_STORE: 'embedded' } : {}),
    };
    const { bin, args } = command(step);
    await run(bin, args, { cwd: ROOT, env });
  }

  const procs = new Map<ProcessName, EngineProcess>();
  const launch = (name: ProcessName) => {
    const { bin, args } = command(manifests.processes[name]);
    procs.set(name, startProcess(bin, args, { logFile: logFile(name), env: envs[name], cwd: ROOT }));
  };
  const waitReady = async (name: ProcessName, timeoutMs = readyTimeoutMs) => {
    const proc = procs.get(name);
    if (!proc) throw new Error(`${name} was never started`);
    await waitUntilReady(name, proc, () => answers(local(name) + PROBE[name]), timeoutMs);
  };
  const running = (name: ProcessName) => procs.get(name)?.running() ?? false;
  const log = (name: ProcessName, lines = 40) => procs.get(name)?.tail(lines) ?? '';

  const topology: Topology = {
    url: local('gateway'),
    urlOf: local,
    metricsUrlOf: (name) => `http://127.0.0.1:${ports[name].metrics}`,
    dataDirOf: dataDir,
    envOf: (name) => ({ ...envs[name] }),
    secrets,
    running,
    async start(name) {
      if (running(name)) throw new Error(`${name} is running`);
      launch(name);
      await waitReady(name);
    },
    async stop(name) {
      const proc = procs.get(name);
      if (proc) await stopProcess(proc, 30_000);
    },
    async kill(name) {
      const proc = procs.get(name);
      if (proc) await killProcess(proc);
    },
    waitReady,
    log,
    logs: (lines = 30) =>
      PROCESSES.filter((n) => procs.has(n))
        .map((n) => `--- ${n} (${running(n) ? 'running' : 'exited'})\n${log(n, lines)}`)
        .join('\n'),
    async close() {
      await Promise.all([...procs.values()].map((p) => stopProcess(p, 10_000)));
    },
  };

  const wanted = PROCESSES.filter((n) => !opts.without?.includes(n));
  try {
    for (const name of wanted) launch(name);
    for (const name of wanted) await waitReady(name);
  } catch (err) {
    const logs = topology.logs();
    await topology.close();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
  return topology;
}

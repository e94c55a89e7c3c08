// The engines of one test run: each is installed (when the cache lacks it) and started on the first request for it,
// shared by every suite that asks, and stopped at the end. The state lives on globalThis because vitest loads the
// global setup once per project and the summary reporter separately, all in the one main process.
import { install } from './install';
import { type KafkaBroker, startKafka } from './kafka';
import { startTemporal, type TemporalServer, temporalTestServerPath } from './temporal';
import { KAFKA_VERSION, TEMPORAL_CLI_VERSION, TEMPORAL_TEST_SERVER_VERSION } from './versions';

export type EngineName = 'kafka' | 'temporal' | 'temporal-test-server';
export const ENGINE_NAMES: readonly EngineName[] = ['kafka', 'temporal', 'temporal-test-server'];

/** What a suite is given: the environment variables that point at the engine. */
export interface EngineEnv {
  env: Record<string, string>;
}

export interface EngineRecord {
  name: EngineName;
  label: string;
  /** Milliseconds the install took, when this run installed it. */
  installMs?: number;
  /** Milliseconds from the request to an answering engine (install excluded). */
  startMs?: number;
  /** Why it could not be had. */
  error?: string;
}

interface Running {
  env: Record<string, string>;
  stop(): Promise<void>;
}

interface PoolState {
  started: Map<EngineName, Promise<Running>>;
  records: Map<EngineName, EngineRecord>;
}

const KEY = Symbol.for('nudge.engines.pool');
const state = (): PoolState => {
  const holder = globalThis as unknown as Record<symbol, PoolState | undefined>;
  holder[KEY] ??= { started: new Map(), records: new Map() };
  return holder[KEY];
};

const LABELS: Record<EngineName, string> = {
  kafka: `Kafka ${KAFKA_VERSION}`,
  temporal: `Temporal dev server (CLI ${TEMPORAL_CLI_VERSION})`,
  'temporal-test-server': `Temporal time-skipping test server ${TEMPORAL_TEST_SERVER_VERSION}`,
};

async function launch(name: EngineName): Promise<Running> {
  if (name === 'kafka') {
    const broker: KafkaBroker = await startKafka();
    return { env: { KAFKA_BROKERS: broker.brokers.join(',') }, stop: () => broker.stop() };
  }
  if (name === 'temporal') {
    const server: TemporalServer = await startTemporal();
    return {
      env: { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: server.namespace },
      stop: () => server.stop(),
    };
  }
  return { env: { TEMPORAL_TEST_SERVER_PATH: await temporalTestServerPath() }, stop: async () => undefined };
}

/** Starts the engine unless this run has it already; rejects with the reason it cannot be had. */
export function acquire(name: EngineName): Promise<EngineEnv> {
  if (!ENGINE_NAMES.includes(name)) return Promise.reject(new Error(`unknown engine ${name}`));
  const { started, records } = state();
  let running = started.get(name);
  if (!running) {
    const record: EngineRecord = { name, label: LABELS[name] };
    records.set(name, record);
    running = (async () => {
      if (process.env.NUDGE_ENGINES === 'off') throw new Error('NUDGE_ENGINES=off');
      const installed = await install(name);
      if (installed.installed) record.installMs = installed.ms;
      const from = Date.now();
      const engine = await launch(name);
      record.startMs = Date.now() - from;
      return engine;
    })();
    running.catch((err: unknown) => {
      record.error = err instanceof Error ? err.message : String(err);
    });
    started.set(name, running);
  }
  return running.then(({ env }) => ({ env }));
}

/** Stops every engine this run started. */
export async function stopAll(): Promise<void> {
  const { started } = state();
  const all = [...started.values()];
  started.clear();
  await Promise.all(all.map((p) => p.then((engine) => engine.stop()).catch(() => undefined)));
}

/** The engines this run asked for: started (with their times) or not (with the reason). */
export const engineRecords = (): EngineRecord[] => [...state().records.values()];

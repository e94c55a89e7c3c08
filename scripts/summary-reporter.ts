import type { Reporter, TestModule } from 'vitest/node';
import { engineRecords } from './engines/pool';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Which real engines this run used: started by the run (with their install and start times), given, or missing. */
export function enginesLine(env: NodeJS.ProcessEnv = process.env): string {
  const parts = engineRecords().map((r) => {
    if (r.error) return `${r.label}: not available (${r.error.split('\n')[0]})`;
    if (r.startMs === undefined) return `${r.label}: starting`;
    const install = r.installMs === undefined ? '' : `, installed in ${seconds(r.installMs)}`;
    // The SDK starts the time-skipping server itself, one per test environment.
    if (r.name === 'temporal-test-server') return `${r.label} (binary handed to the SDK${install})`;
    return `${r.label} (ready in ${seconds(r.startMs)}${install})`;
  });
  for (const variable of ['KAFKA_BROKERS', 'TEMPORAL_ADDRESS', 'TEMPORAL_TEST_SERVER_PATH'])
    if (env[variable]) parts.push(`${variable}=${env[variable]} (given)`);
  return `engines: ${parts.length > 0 ? parts.join('; ') : 'none (no test file of this run needed one)'}`;
}

/**
 * The closing line's counts. A file or suite that failed outside its tests (an import that threw, such as a required
 * engine missing under CI=true, or a failing beforeAll) counts as one failure: it ran none of its tests.
 */
export function countResults(testModules: ReadonlyArray<TestModule>) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const mod of testModules) {
    if (mod.errors().length > 0) failed++;
    for (const suite of mod.children.allSuites()) if (suite.errors().length > 0) failed++;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failed++;
      else skipped++;
    }
  }
  return { passed, failed, skipped };
}

/**
 * Prints which engines ran, then one plain closing line, 'tests: N passed, N failed, N skipped', that CI can read in
 * any runner.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const { passed, failed, skipped } = countResults(testModules);
    process.stdout.write(
      `\n${enginesLine()}\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}

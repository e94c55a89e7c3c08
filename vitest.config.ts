import { defineConfig } from 'vitest/config';

// One vitest project per test tier (docs/ARCHITECTURE.md, "Tests").
// A file's tier is its suffix: *.unit.test.ts, *.int.test.ts, *.contract.test.ts, *.system.test.ts, *.dist.test.ts,
// *.e2e.test.ts. The distributed tier starts every process of the container topology (scripts/topology) on a real
// Kafka and Temporal of its own, once, for all its scenarios (test/distributed/topology.dist.test.ts): its hooks get
// minutes.
const tier = (name: string, timeout: number) => ({
  extends: true as const,
  test: {
    name,
    include: [`**/*.${name === 'integration' ? 'int' : name}.test.ts`],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: timeout,
    hookTimeout: Math.max(timeout, 60_000),
  },
});

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // The real engines (Kafka, Temporal), started on the first ask of a test file that needs one, shared, stopped at
    // the end: scripts/engines.
    globalSetup: ['./scripts/engines/vitest-setup.ts'],
    projects: [
      tier('unit', 5_000),
      tier('integration', 20_000),
      tier('contract', 60_000),
      tier('system', 60_000),
      {
        ...tier('distributed', 300_000),
        test: { ...tier('distributed', 300_000).test, include: ['**/*.dist.test.ts'], hookTimeout: 600_000 },
      },
      tier('e2e', 120_000),
    ],
  },
});

import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { countResults, enginesLine } from '../scripts/summary-reporter';

/** A test module as the reporter reads it: its own errors, its suites' errors, its tests' states. */
const moduleOf = (opts: { errors?: number; suiteErrors?: number[]; states?: string[] }): TestModule =>
  ({
    errors: () => Array.from({ length: opts.errors ?? 0 }, () => ({ message: 'boom' })),
    children: {
      allSuites: () => (opts.suiteErrors ?? []).map((n) => ({ errors: () => Array.from({ length: n }) })),
      allTests: () => (opts.states ?? []).map((state) => ({ result: () => ({ state }) })),
    },
  }) as unknown as TestModule;

describe('the run summary', () => {
  it('counts a file that failed before any test ran (a required engine missing under CI=true) as a failure', () => {
    expect(
      countResults([
        moduleOf({ states: ['passed', 'passed', 'skipped'] }),
        moduleOf({ errors: 1 }),
        moduleOf({ suiteErrors: [0, 1], states: ['skipped', 'failed'] }),
      ]),
    ).toEqual({ passed: 2, failed: 3, skipped: 2 });
  });

  it('names the engines given by variable', () => {
    expect(enginesLine({ KAFKA_BROKERS: '127.0.0.1:9092' })).toContain(
      'KAFKA_BROKERS=127.0.0.1:9092 (given)',
    );
  });
});

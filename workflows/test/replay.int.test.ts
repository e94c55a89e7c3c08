import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { workerTracing } from '../src/tracing';
import { workflowInterceptorModules, workflowsPath } from '../src/worker';
import { quietTemporalRuntime } from './fixtures';

// Determinism: histories recorded from real runs (workflows/test/histories, `npx tsx workflows/test/histories/record.ts`)
// replayed against the current workflow code. A change that would make a running workflow take another path fails
// here; such a change goes through patched(). renewal-before-core.json was recorded from the renewal workflow as it
// was before its body moved to core/renewal.ts: renewal workflows run for a year, so the current code replays it.

quietTemporalRuntime();
const dir = join(import.meta.dirname, 'histories');
const histories = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({
    name: f,
    // The recorder saved History.toJSON(); fromObject reads it back (enum names, 64-bit numbers as strings, base64).
    history: temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, f), 'utf8'))),
  }));

describe('recorded workflow histories replay on the current workflow code', () => {
  it('replays every recorded history without a nondeterminism error', async () => {
    expect(histories.map((h) => h.name).sort()).toEqual([
      'renewal-before-core.json',
      'renewal.json',
      'slot-first-run.json',
      'slot-last-run.json',
    ]);
    const { code } = await bundleWorkflowCode({
      workflowsPath,
      workflowInterceptorModules,
      logger: undefined,
    });
    const { sinks } = workerTracing();
    const results: { name: string; error?: unknown }[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { code }, ...(sinks ? { sinks } : {}) },
      histories.map((h) => ({ workflowId: h.name, history: h.history })),
    ))
      results.push({ name: result.workflowId, ...(result.error ? { error: result.error } : {}) });
    expect(results.filter((r) => r.error).map((r) => `${r.name}: ${String(r.error)}`)).toEqual([]);
    expect(results).toHaveLength(histories.length);
  }, 180_000);
});

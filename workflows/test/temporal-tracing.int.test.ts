// The workflow leg of trace propagation across Temporal, on a real worker and the run's Temporal dev server: the
// service's request span -> the workflow start header -> the sandbox's workflow span -> the activity header -> the
// activity's internal call, one trace throughout.
import { randomBytes } from 'node:crypto';
import { startInMemoryTracing } from '@nudge/platform/testing';
import { engine } from '@nudge/platform/testing/engines';
import { afterAll, describe, expect, it } from 'vitest';
import { tracingClientInterceptors, workerTracing } from '../src/tracing';
import { workflowsPath } from '../src/worker';
import { inRequestSpan, quietTemporalRuntime, RECONCILED, recordingActivities, spanLookup } from './fixtures';

quietTemporalRuntime();
const temporal = await engine('temporal');
if (!temporal.available)
  console.log(`[integration] workflows / Temporal tracing, workflow leg: skipped: ${temporal.reason}`);

describe.runIf(temporal.available)('Temporal tracing: a real worker', () => {
  const { exporter, stop } = startInMemoryTracing();
  afterAll(stop);
  const { byName } = spanLookup(exporter);

  it('one trace from the service span through the workflow to the activity and its internal call', async () => {
    const address = temporal.env?.TEMPORAL_ADDRESS ?? '';
    const { Client, Connection } = await import('@temporalio/client');
    const { NativeConnection, Worker } = await import('@temporalio/worker');
    const { activities, sent } = recordingActivities(RECONCILED);
    const taskQueue = `trace-${randomBytes(4).toString('hex')}`;
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address }),
      taskQueue,
      workflowsPath,
      activities,
      ...workerTracing(),
    });
    const client = new Client({
      connection: await Connection.connect({ address }),
      interceptors: tracingClientInterceptors(),
    });
    const { span: request } = await inRequestSpan(() =>
      worker.runUntil(
        client.workflow.execute('refundReconcileWorkflow', { taskQueue, workflowId: `trace-${taskQueue}` }),
      ),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.split('-')[1]).toBe(request.traceId);
    expect(byName('RunActivity:reconcileRefunds').spanContext().traceId).toBe(request.traceId);
  }, 60_000);
});

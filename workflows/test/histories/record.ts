// Records the workflow histories that replay.int.test.ts replays against the current workflow code (commit them):
//   npx tsx workflows/test/histories/record.ts [renewal-before-core]
// Each is a real run on Temporal (a dev server of its own, the time-skipping server for the renewal) of the bundled
// workflow code with scripted activities. With `renewal-before-core` and a bundle path in RECORD_BUNDLE it records the
// renewal from that bundle instead (the workflow code of an earlier version, whose running workflows the current code
// must replay).
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renewalWorkflowId } from '@nudge/contracts';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { startTemporal, temporalTestServerPath } from '../../../scripts/engines/temporal';
import { workerTracing } from '../../src/tracing';
import { workflowInterceptorModules, workflowsPath } from '../../src/worker';

const here = dirname(fileURLToPath(import.meta.url));
const DAY = 24 * 3600_000;
const only = process.argv[2];
const code = process.env.RECORD_BUNDLE
  ? { codePath: process.env.RECORD_BUNDLE }
  : await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules });
const { sinks } = workerTracing();
/** As History.toJSON() writes it (replay.int.test.ts reads it back with History.fromObject). */
const save = async (name: string, history: temporal.api.history.v1.IHistory) => {
  const json = temporal.api.history.v1.History.fromObject(history).toJSON();
  await writeFile(join(here, `${name}.json`), `${JSON.stringify(json, null, 1)}\n`);
  console.log(`recorded ${name}.json`);
};

/** A slot of three pages planned in two plans, continuing as new after the first (a small history limit). */
async function slot() {
  const server = await startTemporal();
  try {
    const taskQueue = 'record-slot';
    let page = 0;
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: server.address }),
      taskQueue,
      workflowBundle: code,
      ...(sinks ? { sinks } : {}),
      activities: {
        async planPages(input: { cursor: string | null }) {
          return input.cursor
            ? { ends: [null], next: null }
            : { ends: ['08:00|UTC|a', '08:00|UTC|b'], next: '08:00|UTC|b' };
        },
        async sendPage() {
          page += 1;
          // The second page's transport refuses one message the first time: the page runs again.
          const failed = page === 2 ? 1 : 0;
          return {
            sent: 10 - failed,
            alreadySent: 0,
            nothing: 0,
            failed,
            skippedLate: 0,
            inDoubt: 0,
            overLimit: 0,
          };
        },
      },
    });
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    const slotAt = new Date(Math.floor(Date.now() / 900_000) * 900_000).toISOString();
    const handle = await client.workflow.start('reminderSlotWorkflow', {
      taskQueue,
      workflowId: `record-slot-${slotAt}`,
      args: [{ slot: slotAt, batchSize: 10, concurrency: 2, historyEvents: 10 }],
    });
    const firstRunId = handle.firstExecutionRunId;
    await worker.runUntil(handle.result());
    await save(
      'slot-first-run',
      await client.workflow.getHandle(handle.workflowId, firstRunId).fetchHistory(),
    );
    await save('slot-last-run', await client.workflow.getHandle(handle.workflowId).fetchHistory());
    await client.connection.close();
  } finally {
    await server.stop();
  }
}

/** A renewal started with a signal (signalWithStart), signalled again while it waits, through notice and expiry. */
async function renewal(name: string) {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: await temporalTestServerPath() } },
  });
  try {
    const taskQueue = 'record-renewal';
    const start = Date.now();
    const endAt = new Date(start + 30 * DAY).toISOString();
    const later = new Date(start + 60 * DAY).toISOString();
    const planFor = (end: string, notice: boolean) => ({
      subscriptionId: 'sub_r',
      endAt: end,
      next: notice
        ? { kind: 'notice' as const, at: new Date(Date.parse(end) - 7 * DAY).toISOString() }
        : { kind: 'expiry' as const, at: new Date(Date.parse(end) + 2 * DAY).toISOString() },
    });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: code,
      ...(sinks ? { sinks } : {}),
      activities: {
        async renewalStep(input: { kind: string; endAt: string }) {
          if (input.kind === 'notice') return { outcome: 'notice-sent', plan: planFor(input.endAt, false) };
          return { outcome: 'expired', plan: { subscriptionId: 'sub_r', endAt: input.endAt, next: null } };
        },
      },
    });
    const workflowId = renewalWorkflowId('sub_r');
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.signalWithStart('renewalWorkflow', {
        taskQueue,
        workflowId,
        args: [planFor(endAt, true)],
        signal: 'renewalPlan',
        signalArgs: [planFor(endAt, true)],
      });
      await env.sleep(5 * DAY);
      await handle.signal('renewalPlan', planFor(later, true));
      await handle.result();
    });
    await save(name, await env.client.workflow.getHandle(workflowId).fetchHistory());
  } finally {
    await env.teardown();
  }
}

if (only === 'renewal-before-core') await renewal('renewal-before-core');
else {
  await slot();
  await renewal('renewal');
}
process.exit(0);

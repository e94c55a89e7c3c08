import { RENEWAL_PLAN_SIGNAL, type RenewalPlan, renewalWorkflowId } from '@nudge/contracts';
import type { temporalConnection } from '@nudge/platform';
import type { Client } from '@temporalio/client';
import type { RenewalScheduler } from '../app/renewal-workflows';

/**
 * The container topology's RenewalScheduler: Temporal's signalWithStart on the subscription's renewal workflow
 * (workflow id renewal-{subscriptionId}): a running workflow gets the new plan as a signal, an ended one (or none)
 * is started with it. The connection is opened on first use and opened again after a failure. The client carries the
 * caller's trace into the workflow's headers (the worker continues it: workflows/src/tracing.ts).
 */
export function createTemporalRenewalScheduler(opts: {
  /** Where and how to reach Temporal (platform temporalConnection: address, TLS, API key). */
  connection: ReturnType<typeof temporalConnection>;
  namespace: string;
  taskQueue: string;
  /** The client (tests pass a fake); default a connection as `connection` says. */
  connect?: () => Promise<Pick<Client, 'workflow' | 'connection'>>;
}): RenewalScheduler & { close(): Promise<void> } {
  const connect =
    opts.connect ??
    (async () => {
      // Loaded on first use: the standalone process (embedded renewals) never loads Temporal's client.
      const [{ Client, Connection }, { OpenTelemetryWorkflowClientInterceptor }] = await Promise.all([
        import('@temporalio/client'),
        import('@temporalio/interceptors-opentelemetry'),
      ]);
      return new Client({
        connection: await Connection.connect(opts.connection),
        namespace: opts.namespace,
        interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
      });
    });
  let connecting: Promise<Pick<Client, 'workflow' | 'connection'>> | null = null;
  const client = () => {
    connecting ??= connect().catch((err: unknown) => {
      connecting = null;
      throw err;
    });
    return connecting;
  };
  return {
    async planChanged(plan: RenewalPlan) {
      await (await client()).workflow.signalWithStart('renewalWorkflow', {
        workflowId: renewalWorkflowId(plan.subscriptionId),
        taskQueue: opts.taskQueue,
        args: [plan],
        signal: RENEWAL_PLAN_SIGNAL,
        signalArgs: [plan],
      });
    },
    async close() {
      const c = await connecting?.catch(() => null);
      await c?.connection.close();
    },
  };
}

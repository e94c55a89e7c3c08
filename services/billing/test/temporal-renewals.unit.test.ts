import { RENEWAL_PLAN_SIGNAL, type RenewalPlan } from '@nudge/contracts';
import { describe, expect, it } from 'vitest';
import { createTemporalRenewalScheduler } from '../src/infra/temporal-renewals';

// The container topology's RenewalScheduler against a fake Temporal client (a real server runs nowhere here):
// what billing asks Temporal to do, and a connection that failed once is opened again.

const plan: RenewalPlan = {
  subscriptionId: 'sub_Abc123',
  endAt: '2027-03-01T10:00:00.000Z',
  next: { kind: 'notice', at: '2027-02-22T10:00:00.000Z' },
};

describe('Temporal RenewalScheduler', () => {
  it("signalWithStart on the subscription's renewal workflow, with the plan as argument and signal", async () => {
    const calls: unknown[][] = [];
    const scheduler = createTemporalRenewalScheduler({
      connection: { address: 'temporal:7233', tls: false },
      namespace: 'default',
      taskQueue: 'nudge-reminders',
      connect: async () =>
        ({
          workflow: { signalWithStart: async (...args: unknown[]) => void calls.push(args) },
          connection: { close: async () => undefined },
        }) as never,
    });
    await scheduler.planChanged(plan);
    expect(calls).toEqual([
      [
        'renewalWorkflow',
        {
          workflowId: 'renewal-sub_Abc123',
          taskQueue: 'nudge-reminders',
          args: [plan],
          signal: RENEWAL_PLAN_SIGNAL,
          signalArgs: [plan],
        },
      ],
    ]);
  });

  it('a failed connection is reported to the caller and opened again on the next change', async () => {
    let attempts = 0;
    const signalled: unknown[] = [];
    const scheduler = createTemporalRenewalScheduler({
      connection: { address: 'temporal:7233', tls: false },
      namespace: 'default',
      taskQueue: 'q',
      connect: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('connection refused');
        return {
          workflow: { signalWithStart: async (_: string, o: unknown) => void signalled.push(o) },
          connection: { close: async () => undefined },
        } as never;
      },
    });
    await expect(scheduler.planChanged(plan)).rejects.toThrow('connection refused');
    await scheduler.planChanged(plan);
    await scheduler.planChanged(plan);
    expect(attempts).toBe(2);
    expect(signalled).toHaveLength(2);
    await scheduler.close();
  });
});

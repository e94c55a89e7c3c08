import { randomBytes } from 'node:crypto';
import { BillingEvents, renewalWorkflowId } from '@nudge/contracts';
import { createLogger } from '@nudge/platform';
import { engine } from '@nudge/platform/testing/engines';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type Worker } from '@temporalio/worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTemporalRenewalScheduler } from '../../services/billing/src/infra/temporal-renewals';
import {
  BILLING_INTERNAL_TOKEN,
  type BillingHarness,
  DAY,
  startBilling,
  subscribe,
} from '../../services/billing/test/harness';
import { createActivities, createInternalCall } from '../src/activities';
import { forTemporal, workflowsPath } from '../src/worker';
import { quietTemporalRuntime } from './fixtures';

// The renewal workflows of the container topology on Temporal's time-skipping test server, end to end: billing (HTTP,
// its event store, its Razorpay, its notices' outbox) starts and signals each subscription's workflow through its
// Temporal scheduler (signalWithStart), a worker runs the bundled workflow code with the real renewalStep activity,
// and the server skips the weeks and months between steps. Billing's clock follows the workflow's: each step runs at
// the time the workflow did it, each request of the test at the server's current time.

quietTemporalRuntime();
const testServer = await engine('temporal-test-server');
if (!testServer.available)
  console.log(
    `[integration] workflows / renewals on Temporal (time-skipping): skipped: ${testServer.reason}`,
  );

const log = createLogger('renewals-temporal-test', 'silent');
const GRACE = 2 * DAY;

describe.runIf(testServer.available)(
  'renewal workflows on the time-skipping test server, with billing',
  () => {
    let env: TestWorkflowEnvironment;
    let workflowBundle: { code: string };
    beforeAll(async () => {
      const { TestWorkflowEnvironment } = await import('@temporalio/testing');
      [env, workflowBundle] = await Promise.all([
        TestWorkflowEnvironment.createTimeSkipping({
          server: {
            executable: { type: 'existing-path', path: testServer.env?.TEMPORAL_TEST_SERVER_PATH ?? '' },
          },
        }),
        bundleWorkflowCode({ workflowsPath }),
      ]);
    }, 120_000);
    afterAll(async () => {
      await env?.teardown();
    });

    let h: BillingHarness | undefined;
    /** The renewal workflows billing started: a test leaves none running (with no worker left to run it, its next
     * timer would hold the server's clock for the tests after it). */
    const started = new Set<string>();
    afterEach(async () => {
      for (const id of started)
        await env.client.workflow
          .getHandle(id)
          .terminate('the test ended')
          .catch(() => undefined);
      started.clear();
      await h?.close();
      h = undefined;
    });

    /** Billing at the server's current time on the provider given, and a worker on a queue of its own. */
    async function world(provider: 'razorpay' | 'simulated' = 'razorpay') {
      const { Worker } = await import('@temporalio/worker');
      const taskQueue = `renewals-${randomBytes(4).toString('hex')}`;
      const scheduler = createTemporalRenewalScheduler({
        connection: { address: '', tls: false },
        namespace: env.namespace ?? 'default',
        taskQueue,
        connect: async () => env.client,
      });
      const billing = await startBilling({
        provider,
        start: new Date(await env.currentTimeMs()).toISOString(),
        renewals: {
          async planChanged(plan) {
            started.add(renewalWorkflowId(plan.subscriptionId));
            await scheduler.planChanged(plan);
          },
        },
      });
      h = billing;
      const activities = createActivities({
        call: createInternalCall({
          serviceUrls: { billing: billing.url },
          internalToken: BILLING_INTERNAL_TOKEN,
        }),
        mail: { send: async () => undefined },
        whatsapp: { send: async () => undefined },
        trackingSecret: Buffer.alloc(32),
        publicUrl: 'http://nudge.test',
        log,
        clock: () => billing.clock.now(),
      });
      /** Every step the workflow had billing do, at the workflow's time. */
      const steps: { kind: string; at: string; endAt: string }[] = [];
      const worker: Worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        workflowBundle,
        activities: forTemporal({
          async renewalStep(input: Parameters<typeof activities.renewalStep>[0]) {
            billing.clock.set(input.at);
            steps.push({ kind: input.kind, at: input.at, endAt: input.endAt });
            return activities.renewalStep(input);
          },
        }),
      });
      /** Billing's clock set to the server's time, for a request the test makes. */
      const sync = async () => billing.clock.set(new Date(await env.currentTimeMs()));
      /** Lets `ms` of the server's time pass while the worker runs (the server skips what nothing waits on). */
      const pass = async (ms: number) => {
        await env.sleep(ms);
        await sync();
      };
      const handle = (subscriptionId: string) =>
        env.client.workflow.getHandle(renewalWorkflowId(subscriptionId));
      const notices = async (to: string) =>
        (await billing.outbox.list())
          .filter((m) => m.to === to && !m.idempotencyKey?.startsWith('receipt-'))
          .map((m) => m.subject);
      const events = async (subscriptionId: string, type: string) =>
        (await billing.events.readStream(`subscription-${subscriptionId}`)).filter((e) => e.type === type);
      return { h: billing, worker, steps, sync, pass, handle, notices, events };
    }

    it('renewal on: the notice 7 days before endAt, the expiry after the grace period; a year passes in seconds', async () => {
      const w = await world();
      const started = Date.now();
      const user = await w.h.user();
      const { subscriptionId } = await subscribe(w.h, user);
      const { endAt } = await w.h.subscription(subscriptionId);
      const result = await w.worker.runUntil(w.handle(subscriptionId).result());
      expect(result).toMatchObject({ subscriptionId, next: null });

      expect(w.steps.map((s) => s.kind)).toEqual(['notice', 'expiry']);
      const [notice, expiry] = w.steps.map((s) => Date.parse(s.at));
      expect(notice).toBeGreaterThanOrEqual(Date.parse(endAt) - 7 * DAY);
      expect(notice).toBeLessThan(Date.parse(endAt) - 7 * DAY + 60_000);
      expect(expiry).toBeGreaterThanOrEqual(Date.parse(endAt) + GRACE);
      expect(expiry).toBeLessThan(Date.parse(endAt) + GRACE + 60_000);
      expect(await w.notices(user.email)).toEqual([expect.stringMatching(/your premium renews on/)]);
      expect(await w.h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
      expect(await w.events(subscriptionId, BillingEvents.SubscriptionExpired.type)).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 120_000);

    it('a cancel changes the plan: the notice says premium ends, and it ends at endAt exactly', async () => {
      const w = await world();
      const user = await w.h.user();
      const { subscriptionId } = await subscribe(w.h, user);
      const { endAt } = await w.h.subscription(subscriptionId);
      await w.worker.runUntil(async () => {
        await w.pass(10 * DAY);
        expect((await w.h.post('/api/payment/cancel', { token: user.token })).status).toBe(200);
        await w.handle(subscriptionId).result();
      });
      expect(w.steps.map((s) => s.kind)).toEqual(['notice', 'expiry']);
      expect(await w.notices(user.email)).toEqual([expect.stringMatching(/your premium ends on/)]);
      const expiry = Date.parse(w.steps[1]?.at ?? '');
      expect(expiry).toBeGreaterThanOrEqual(Date.parse(endAt));
      expect(expiry).toBeLessThan(Date.parse(endAt) + 60_000);
      expect(await w.h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
    }, 120_000);

    it('a renewal webhook changes the plan: the expiry is gone, the next notice comes 7 days before the next endAt', async () => {
      const w = await world();
      const user = await w.h.user();
      const { subscriptionId } = await subscribe(w.h, user);
      const { endAt } = await w.h.subscription(subscriptionId);
      await w.worker.runUntil(async () => {
        // Past the notice, to an hour after endAt: Razorpay charged the renewal and says so.
        await w.pass(Date.parse(endAt) + 3600_000 - (await env.currentTimeMs()));
        expect(w.steps.map((s) => s.kind)).toEqual(['notice']);
        const renewed = w.h.renewal(subscriptionId, user.userId, new Date(endAt), 2);
        expect((await w.h.deliver(renewed)).status).toBe(200);
        // Where the expiry was due (endAt + grace) and on to a day after the next notice.
        await w.pass(365 * DAY - 7 * DAY + DAY);
      });
      const next = await w.h.subscription(subscriptionId);
      expect(next).toMatchObject({ entitled: true });
      expect(Date.parse(next.endAt)).toBeGreaterThan(Date.parse(endAt) + 360 * DAY);
      expect(w.steps.map((s) => [s.kind, s.endAt])).toEqual([
        ['notice', endAt],
        ['notice', next.endAt],
      ]);
      expect(Date.parse(w.steps[1]?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(next.endAt) - 7 * DAY);
      expect(await w.notices(user.email)).toHaveLength(2);
      expect(await w.events(subscriptionId, BillingEvents.SubscriptionExpired.type)).toEqual([]);
    }, 120_000);

    it('a restart after a cancel changes the plan: the new subscription is charged at the old endAt (simulated Razorpay)', async () => {
      const w = await world('simulated');
      const user = await w.h.user();
      const checkout = await w.h.post('/api/payment/checkout', { token: user.token });
      const first: string = checkout.body.subscription.subscriptionId;
      for (const event of (await w.h.simulated?.complete(first, 'pay')) ?? [])
        expect((await w.h.deliver(event)).status).toBe(200);
      const { endAt } = await w.h.subscription(first);
      let next = '';
      await w.worker.runUntil(async () => {
        await w.pass(10 * DAY);
        expect((await w.h.post('/api/payment/cancel', { token: user.token })).status).toBe(200);
        const restart = await w.h.post('/api/payment/restart', { token: user.token });
        next = restart.body.subscription.subscriptionId;
        for (const event of (await w.h.simulated?.complete(next, 'pay')) ?? [])
          expect((await w.h.deliver(event)).status).toBe(200);
        // On past endAt and the old subscription's grace period.
        await w.pass(Date.parse(endAt) + GRACE + 3600_000 - (await env.currentTimeMs()));
      });
      expect(await w.h.subscription(next)).toMatchObject({
        status: 'active',
        entitled: true,
        startAt: endAt,
      });
      const charge = w.steps.find((s) => s.kind === 'charge');
      expect(Date.parse(charge?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(endAt));
      expect(Date.parse(charge?.at ?? '')).toBeLessThan(Date.parse(endAt) + 60_000);
      expect(await w.h.subscription(first)).toMatchObject({ status: 'cancelled', entitled: false });
      expect((await w.h.post('/api/payment/details', { token: user.token })).body.details).toMatchObject({
        subscriptionId: next,
      });
    }, 120_000);
  },
);

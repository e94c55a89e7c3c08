import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TIME_ZONE } from '@nudge/contracts/days';
import type { OutboxMessage } from '@nudge/platform';
import { submitSimulatedCheckout } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient, testStandaloneEnv } from './helpers';

// A subscription's renewal in the standalone process, on a scheduler clock the test drives: the notice 7 days
// before endAt in the site settings an admin chose (content's, fetched by billing), the simulated Razorpay's charge
// at endAt through the same durable timer, and nothing expiring where the grace period ends.

const PUBLIC_URL = 'http://nudge.test';
const DAY = 24 * 3600_000;
let now = new Date();
let dataDir: string;
let app: Standalone;

const { call, ok, eventually, signIn } = gatewayClient(() => app);
const outbox = async (): Promise<OutboxMessage[]> => (await ok('GET', '/api/dev/outbox')).messages;

/** Repeats a call until it answers 200 (a service learns of a new user or admin from auth's events). */
async function once200(method: string, path: string, body: unknown, token: string) {
  let answer: any;
  await eventually(async () => {
    const res = await call(method, path, body, token);
    answer = res.body;
    return res.status === 200;
  }, `${method} ${path} to answer 200`);
  return answer;
}

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: DEFAULT_TIME_ZONE,
  }).format(new Date(iso));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-renewals-'));
  app = await startStandalone(testStandaloneEnv(dataDir, { PUBLIC_URL }), { clock: () => now });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('renewals in the standalone process (embedded timers, simulated Razorpay, a clock the test drives)', () => {
  it("sends the notice in the admin's site settings, charges at endAt, and does not expire after the grace", async () => {
    const { token: admin } = await signIn('admin@example.com');
    await once200(
      'PUT',
      '/api/sitesettings/update',
      {
        settings: {
          sitetitle: 'Calm Daily',
          subjectprefix: '[Calm]',
          emaillogo: 'https://cdn.example/calm-logo.png',
          buttoncolor: '#7c3aed',
        },
      },
      admin,
    );

    const { token: reader } = await signIn('reader@example.com');
    const checkout = await once200('POST', '/api/payment/checkout', {}, reader);
    expect((await submitSimulatedCheckout(app.url, checkout.checkoutUrl)).status).toBe(303);
    const id: string = checkout.subscription.subscriptionId;
    const { details } = await ok('POST', '/api/payment/details', {}, reader);
    const endAt: string = details.endAt;
    const at = (deltaMs: number) => new Date(Date.parse(endAt) + deltaMs);
    expect(await app.renewals.timer(id)).toEqual({
      subscriptionId: id,
      endAt,
      next: { kind: 'notice', at: at(-7 * DAY).toISOString() },
    });

    // 7 days before endAt: the notice, in both parts, dressed in the settings the admin saved in content.
    now = at(-7 * DAY);
    await app.reminders.runDue();
    const notices = (await outbox()).filter(
      (m) => m.to === 'reader@example.com' && m.subject?.includes('premium'),
    );
    expect(notices.map((m) => m.subject)).toEqual([
      `[Calm] Calm Daily: your premium renews on ${longDate(endAt)}`,
    ]);
    const [notice] = notices;
    expect(notice?.text).toContain(
      `Your subscription will renew on ${longDate(endAt)}. We will charge ₹2500 for the next year then.`,
    );
    expect(notice?.text).toContain('Hi Rae,');
    expect(notice?.text).toContain(`${PUBLIC_URL}/upgrade`);
    expect(notice?.html).toContain('src="https://cdn.example/calm-logo.png"');
    expect(notice?.html).toContain('background-color:#7c3aed');
    expect(notice?.html).toContain(`href="${PUBLIC_URL}/upgrade"`);
    expect((await app.renewals.timer(id))?.next).toEqual({ kind: 'charge', at: endAt });

    // At endAt the simulated Razorpay charges the next year, as Razorpay would.
    now = at(0);
    await app.reminders.runDue();
    const nextEnd = new Date(endAt);
    nextEnd.setUTCFullYear(nextEnd.getUTCFullYear() + 1);
    const renewed = await ok('POST', '/api/payment/details', {}, reader);
    expect(renewed.details).toMatchObject({ subscriptionId: id, endAt: nextEnd.toISOString() });
    expect((await app.renewals.timer(id))?.next).toEqual({
      kind: 'notice',
      at: new Date(nextEnd.getTime() - 7 * DAY).toISOString(),
    });

    // Where the old expiry was (endAt + 48 h): still premium, the subscription running into its second year.
    now = at(2 * DAY + 60_000);
    await app.reminders.runDue();
    expect((await ok('POST', '/api/payment/details', {}, reader)).details).toMatchObject({
      subscriptionId: id,
      endAt: nextEnd.toISOString(),
      renewal: 'Active',
    });
    const history = await ok('POST', '/api/payment/history', {}, reader);
    expect(history.history.filter((e: { kind: string }) => e.kind === 'payment')).toHaveLength(2);
  }, 120_000);
});

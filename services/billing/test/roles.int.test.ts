import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootAuth } from '@nudge/auth';
import {
  closeServer,
  createEmbeddedStore,
  createInProcessBus,
  createLogger,
  createMessaging,
  type DocumentStore,
  type EventBus,
  listen,
  loadConfig,
  openOutboxStore,
} from '@nudge/platform';
import { jsonCall, until } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootBilling } from '../src/boot';

/** Auth and billing booted as the standalone process boots them, on one in-process bus, the simulated Razorpay. */
let dir: string;
let busStore: DocumentStore;
let outboxStore: DocumentStore;
let bus: EventBus;
let auth: Awaited<ReturnType<typeof bootAuth>>;
let billing: Awaited<ReturnType<typeof bootBilling>>;
const servers: Server[] = [];
let authUrl: string;
let billingUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nudge-billing-roles-'));
  const log = createLogger('billing-roles-test', 'silent');
  busStore = createEmbeddedStore({});
  bus = createInProcessBus({ store: busStore, pollMs: 20, retryBaseMs: 10, log });
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ADMIN_EMAILS: 'boss@example.com' });
  outboxStore = await openOutboxStore(config);
  const messaging = createMessaging(config, outboxStore);
  auth = await bootAuth({ config, bus, log, messaging });
  const a = await listen(auth.app, 0);
  servers.push(a.server);
  authUrl = a.url;
  billing = await bootBilling({ config, bus, log, messaging, serviceUrls: { auth: authUrl } });
  const b = await listen(billing.app, 0);
  servers.push(b.server);
  billingUrl = b.url;
});
afterAll(async () => {
  for (const server of servers) await closeServer(server);
  await billing.close();
  await auth.close();
  await bus.close();
  await busStore.close();
  await outboxStore.close();
  await rm(dir, { recursive: true, force: true });
});

async function signIn(email: string) {
  await jsonCall(authUrl, 'POST', '/api/user/auth', { email });
  const mail = (await outboxStore.collection<any>('dev_outbox').find({ to: email })).at(-1);
  const otp = String(mail?.text ?? '').match(/\b(\d{6})\b/)?.[1];
  const verified = await jsonCall(authUrl, 'POST', '/api/user/verify', { email, otp });
  if (verified.status !== 200) throw new Error(`sign-in failed: ${verified.text}`);
  const userId: string = verified.body.user._id;
  // Billing learns of the user from auth's events.
  await until(
    async () => Boolean(await billing.runtime.store.collection('directory_users').findOne({ _id: userId })),
    'billing to know the user',
    8_000,
  );
  return { userId, token: verified.body.token as string };
}

const roleInAuth = (userId: string) => async () =>
  (await auth.runtime.store.collection<any>('users').findOne({ _id: userId }))?.role as string;

/** Checkout and the simulated page's Pay button, over HTTP. */
async function pay(token: string) {
  const checkout = await jsonCall(billingUrl, 'POST', '/api/payment/checkout', { token });
  expect(checkout.status).toBe(200);
  const submitted = await fetch(billingUrl + checkout.body.checkoutUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=pay',
    redirect: 'manual',
  });
  expect(submitted.status).toBe(303);
  return checkout.body;
}

describe('role follows payment across services (billing events consumed by auth)', () => {
  it('paying makes the reader premium in auth; a cancel within 7 days makes them user again', async () => {
    const reader = await signIn('subscriber@example.com');
    const checkout = await pay(reader.token);
    expect(checkout.user).toMatchObject({
      _id: reader.userId,
      email: 'subscriber@example.com',
      role: 'user',
    });
    await until(async () => (await roleInAuth(reader.userId)()) === 'premium', 'premium in auth', 8_000);

    // The reader's next token check sees premium; billing knows it too (auth's RoleChanged reached it).
    const me = await jsonCall(authUrl, 'POST', '/api/user/isauth', { token: reader.token });
    expect(me.body.user.role).toBe('premium');
    await until(
      async () =>
        (await billing.runtime.store.collection<any>('directory_users').findOne({ _id: reader.userId }))
          ?.role === 'premium',
      'billing directory premium',
      8_000,
    );
    const details = await jsonCall(billingUrl, 'POST', '/api/payment/details', { token: reader.token });
    expect(details.body.details).toMatchObject({ status: 'active', renewal: 'Active' });

    const cancel = await jsonCall(billingUrl, 'POST', '/api/payment/cancel', { token: reader.token });
    expect(cancel.body.message).toBe(
      'Your subscription has been cancelled and a refund of ₹2500 has been issued.',
    );
    await until(
      async () => (await roleInAuth(reader.userId)()) === 'user',
      'user in auth after the refund',
      8_000,
    );
  });

  it('an expiry found by the periodic check makes the reader user; an admin stays admin', async () => {
    const reader = await signIn('expiring@example.com');
    await pay(reader.token);
    await until(async () => (await roleInAuth(reader.userId)()) === 'premium', 'premium', 8_000);

    const promoted = await signIn('promoted@example.com');
    await pay(promoted.token);
    await until(
      async () => (await roleInAuth(promoted.userId)()) === 'premium',
      'premium before promotion',
      8_000,
    );
    const admin = await signIn('boss@example.com');
    const update = await jsonCall(
      authUrl,
      'POST',
      `/api/user/update/${promoted.userId}`,
      { info: { role: 'admin' } },
      admin.token,
    );
    expect(update.status).toBe(200);

    const later = new Date(Date.now() + 400 * 24 * 3600_000);
    const expired = await billing.service.expireDueSubscriptions(later);
    expect(expired).toHaveLength(2);
    await until(async () => (await roleInAuth(reader.userId)()) === 'user', 'user after expiry', 8_000);
    // Auth has taken in the promoted user's expiry, and left the admin role alone.
    await until(
      async () => {
        const doc = await auth.runtime.store
          .collection<any>('billing_entitlements')
          .findOne({ _id: promoted.userId });
        return Object.values(doc?.subscriptions ?? {}).some((s: any) => s.entitled === false);
      },
      'auth to process the admin’s expiry',
      8_000,
    );
    expect(await roleInAuth(promoted.userId)()).toBe('admin');
  });

  it('a reader an admin made premium (no paid subscription) is told so at checkout, and nothing is opened', async () => {
    const reader = await signIn('granted@example.com');
    const admin = await signIn('boss@example.com');
    const update = await jsonCall(
      authUrl,
      'POST',
      `/api/user/update/${reader.userId}`,
      { info: { role: 'premium' } },
      admin.token,
    );
    expect(update.status).toBe(200);
    await until(
      async () =>
        (await billing.runtime.store.collection<any>('directory_users').findOne({ _id: reader.userId }))
          ?.role === 'premium',
      'billing directory premium',
      8_000,
    );

    // The reader's token still says user: billing answers from the current role.
    const checkout = await jsonCall(billingUrl, 'POST', '/api/payment/checkout', { token: reader.token });
    expect(checkout.status).toBe(409);
    expect(checkout.body).toMatchObject({
      status: false,
      message: 'You already have premium access, given by an administrator, so there is nothing to buy',
    });
    const details = await jsonCall(billingUrl, 'POST', '/api/payment/details', { token: reader.token });
    expect(details.status).toBe(200);
    expect(details.body.details ?? null).toBeNull();

    // Once the admin takes premium away, the reader can buy it.
    await jsonCall(
      authUrl,
      'POST',
      `/api/user/update/${reader.userId}`,
      { info: { role: 'user' } },
      admin.token,
    );
    await until(
      async () =>
        (await billing.runtime.store.collection<any>('directory_users').findOne({ _id: reader.userId }))
          ?.role === 'user',
      'billing directory user',
      8_000,
    );
    await pay(reader.token);
    await until(async () => (await roleInAuth(reader.userId)()) === 'premium', 'premium after paying', 8_000);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, BillingEvents, checkEvent } from '@nudge/contracts';
import {
  closeServer,
  createEmbeddedStore,
  createInProcessBus,
  createLogger,
  createMessaging,
  type DocumentStore,
  type EventBus,
  type EventEnvelope,
  listen,
  loadConfig,
  newId,
  openOutboxStore,
  PROCESSED_EVENTS,
  toBusMessage,
  topicFor,
} from '@nudge/platform';
import { jsonCall, until } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserRepository } from '../src/app/user-repository';
import { bootAuth } from '../src/boot';
import { BILLING_ENTITLEMENTS, createBillingHandlers } from '../src/events/billing-consumer';

let dir: string;
let busStore: DocumentStore;
let outboxStore: DocumentStore;
let bus: EventBus;
let auth: Awaited<ReturnType<typeof bootAuth>>;
let server: Server;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nudge-auth-billing-'));
  const log = createLogger('auth-billing-test', 'silent');
  busStore = createEmbeddedStore({});
  bus = createInProcessBus({ store: busStore, pollMs: 20, retryBaseMs: 10, log });
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ADMIN_EMAILS: 'boss@example.com' });
  outboxStore = await openOutboxStore(config);
  auth = await bootAuth({ config, bus, log, messaging: createMessaging(config, outboxStore) });
  ({ server, url } = await listen(auth.app, 0));
});
afterAll(async () => {
  await closeServer(server);
  await auth.close();
  await bus.close();
  await busStore.close();
  await outboxStore.close();
  await rm(dir, { recursive: true, force: true });
});

async function signIn(email: string): Promise<{ userId: string; token: string }> {
  await jsonCall(url, 'POST', '/api/user/auth', { email });
  const mail = (await outboxStore.collection<any>('dev_outbox').find({ to: email })).at(-1);
  const otp = String(mail?.text ?? '').match(/\b(\d{6})\b/)?.[1];
  const verified = await jsonCall(url, 'POST', '/api/user/verify', { email, otp });
  if (verified.status !== 200) throw new Error(`sign-in failed: ${verified.text}`);
  return { userId: verified.body.user._id, token: verified.body.token };
}

const role = async (userId: string) =>
  (await auth.runtime.store.collection<any>('users').findOne({ _id: userId }))?.role;

/** Billing's events as its relay would publish them: one stream per subscription, versions in order. */
function billingStream(subscriptionId: string) {
  let version = 0;
  // Through billing's contract schema, so a producer change fails this consumer's tests.
  return (type: string, data: Record<string, unknown>): EventEnvelope => ({
    id: newId(),
    ...checkEvent(type, { subscriptionId, ...data }),
    stream: `subscription-${subscriptionId}`,
    version: ++version,
    occurredAt: new Date().toISOString(),
    actor: 'razorpay',
    meta: {},
  });
}

const END = '2027-03-01T10:00:00.000Z';
const activated = (userId: string) => ({
  userId,
  email: 'x@example.com',
  startAt: '2026-03-01T10:00:00.000Z',
  endAt: END,
});

async function publish(events: EventEnvelope[]) {
  await bus.publish(events.map((e) => toBusMessage(topicFor('billing'), e)));
}

const processed = (events: EventEnvelope[]) => async () =>
  (await auth.runtime.store
    .collection(PROCESSED_EVENTS)
    .countDocuments({ _id: { $in: events.map((e) => `auth:${e.id}`) } })) === events.length;

describe("auth consumes billing's events: role follows payment", () => {
  it('Activated makes a reader premium, Renewed keeps it, Expired makes them user again', async () => {
    const reader = await signIn('payer@example.com');
    const next = billingStream('sub_roles00000001');
    const start = [next(BillingEvents.SubscriptionActivated.type, activated(reader.userId))];
    await publish(start);
    await until(async () => (await role(reader.userId)) === 'premium', 'premium');
    const me = await jsonCall(url, 'POST', '/api/user/isauth', { token: reader.token });
    expect(me.body.user.role).toBe('premium');

    const renewed = [
      next(BillingEvents.SubscriptionRenewed.type, {
        userId: reader.userId,
        endAt: '2028-03-01T10:00:00.000Z',
      }),
    ];
    await publish(renewed);
    await until(processed(renewed), 'renewed processed');
    expect(await role(reader.userId)).toBe('premium');

    await publish([next(BillingEvents.SubscriptionExpired.type, { userId: reader.userId, endAt: END })]);
    await until(async () => (await role(reader.userId)) === 'user', 'user again');
    const changes = (await auth.runtime.events.readStream(`user-${reader.userId}`))
      .filter((e) => e.type === AuthEvents.RoleChanged.type)
      .map((e) => e.data);
    expect(changes).toEqual([
      { userId: reader.userId, from: 'user', to: 'premium', reason: 'billing' },
      { userId: reader.userId, from: 'premium', to: 'user', reason: 'billing' },
    ]);
  });

  it('leaves an admin an admin', async () => {
    const admin = await signIn('boss@example.com');
    expect(await role(admin.userId)).toBe('admin');
    const next = billingStream('sub_roles00000002');
    const events = [
      next(BillingEvents.SubscriptionActivated.type, activated(admin.userId)),
      next(BillingEvents.SubscriptionExpired.type, { userId: admin.userId, endAt: END }),
    ];
    await publish(events);
    await until(processed(events), 'admin events processed');
    expect(await role(admin.userId)).toBe('admin');
  });

  it('an immediate cancel ends premium; renewal turned off does not', async () => {
    const reader = await signIn('canceller@example.com');
    const next = billingStream('sub_roles00000003');
    const off = [
      next(BillingEvents.SubscriptionActivated.type, activated(reader.userId)),
      next(BillingEvents.SubscriptionCancelled.type, {
        userId: reader.userId,
        immediate: false,
        refunded: false,
        endAt: END,
      }),
    ];
    await publish(off);
    await until(processed(off), 'renewal off processed');
    expect(await role(reader.userId)).toBe('premium');
    await publish([
      next(BillingEvents.SubscriptionCancelled.type, {
        userId: reader.userId,
        immediate: true,
        refunded: true,
        endAt: new Date().toISOString(),
      }),
    ]);
    await until(async () => (await role(reader.userId)) === 'user', 'user after immediate cancel');
  });

  it('keeps premium while another subscription still grants it, whatever order the streams arrive in', async () => {
    const reader = await signIn('restarter@example.com');
    const old = billingStream('sub_roles0000000A');
    const renewal = billingStream('sub_roles0000000B');
    const oldActivated = old(BillingEvents.SubscriptionActivated.type, activated(reader.userId));
    const newActivated = renewal(BillingEvents.SubscriptionActivated.type, activated(reader.userId));
    const oldExpired = old(BillingEvents.SubscriptionExpired.type, { userId: reader.userId, endAt: END });
    await publish([oldActivated, newActivated, oldExpired]);
    await until(processed([oldActivated, newActivated, oldExpired]), 'both streams processed');
    expect(await role(reader.userId)).toBe('premium');
    const last = [renewal(BillingEvents.SubscriptionExpired.type, { userId: reader.userId, endAt: END })];
    await publish(last);
    await until(async () => (await role(reader.userId)) === 'user', 'user once both ended');
  });

  it('keeps a reader premium when two replicas handle an expiry and a new subscription at the same moment', async () => {
    const reader = await signIn('two-replicas@example.com');
    const old = billingStream('sub_roles0000000C');
    const renewal = billingStream('sub_roles0000000D');
    await publish([old(BillingEvents.SubscriptionActivated.type, activated(reader.userId))]);
    await until(async () => (await role(reader.userId)) === 'premium', 'premium');

    // Two auth replicas on one store. Replica A reads the entitlements for the old subscription's expiry and is held
    // there; meanwhile replica B handles the new subscription's activation whole (the reader is premium already: B
    // changes nothing); then A goes on with what it read.
    let held: (() => void) | undefined;
    let reads = 0;
    const release = new Promise<void>((resolve) => {
      held = resolve;
    });
    let readBeforeHold: () => void = () => {};
    const readDone = new Promise<void>((resolve) => {
      readBeforeHold = resolve;
    });
    const { store, events } = auth.runtime;
    const slowStore = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'collection') return Reflect.get(target, key, receiver);
        return (name: string) => {
          const collection = target.collection<any>(name);
          if (name !== BILLING_ENTITLEMENTS) return collection;
          return new Proxy(collection, {
            get(c, k, r) {
              if (k !== 'findOne') return Reflect.get(c, k, r);
              return async (...args: Parameters<typeof collection.findOne>) => {
                const found = await c.findOne(...args);
                // The note's own read, then the role's: held after the role's.
                if (++reads === 2) {
                  readBeforeHold();
                  await release;
                }
                return found;
              };
            },
          });
        };
      },
    }) as DocumentStore;
    const replicaA = createBillingHandlers({ store: slowStore, users: createUserRepository(store, events) });
    const replicaB = createBillingHandlers({ store, users: createUserRepository(store, events) });
    const expired = old(BillingEvents.SubscriptionExpired.type, { userId: reader.userId, endAt: END });
    const activatedNew = renewal(BillingEvents.SubscriptionActivated.type, activated(reader.userId));
    const a = replicaA[expired.type]?.(expired);
    await readDone;
    await replicaB[activatedNew.type]?.(activatedNew);
    held?.();
    await a;
    // The new subscription is paid: the reader is premium.
    expect(await role(reader.userId)).toBe('premium');
  });

  it('is idempotent: the whole stream redelivered, even under new event ids, changes nothing', async () => {
    const reader = await signIn('replayed@example.com');
    const next = billingStream('sub_roles00000004');
    const stream = [
      next(BillingEvents.SubscriptionActivated.type, activated(reader.userId)),
      next(BillingEvents.SubscriptionRenewed.type, {
        userId: reader.userId,
        endAt: '2028-03-01T10:00:00.000Z',
      }),
      next(BillingEvents.SubscriptionExpired.type, {
        userId: reader.userId,
        endAt: '2028-03-01T10:00:00.000Z',
      }),
    ];
    await publish(stream);
    await until(processed(stream), 'stream processed');
    const snapshot = async () => ({
      user: await auth.runtime.store.collection('users').findOne({ _id: reader.userId }),
      entitlements: await auth.runtime.store.collection(BILLING_ENTITLEMENTS).findOne({ _id: reader.userId }),
      events: (await auth.runtime.events.readStream(`user-${reader.userId}`)).length,
    });
    const before = await snapshot();
    expect(before.user).toMatchObject({ role: 'user' });

    // The bus delivers the same messages again (at least once).
    await publish(stream);
    // A crash after a handler but before its record: the same events reach the handlers again as new deliveries.
    const again = stream.map((e) => ({ ...e, id: newId() }));
    await publish(again);
    await until(processed(again), 'redelivery processed');
    expect(await snapshot()).toEqual(before);
  });
});

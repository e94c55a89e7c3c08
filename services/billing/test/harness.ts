import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, checkEvent, type Role } from '@nudge/contracts';
import {
  captureMail,
  closeServer,
  createDevOutbox,
  createEmbeddedStore,
  createEventStore,
  createLogger,
  createTokenIssuer,
  createTokenVerifier,
  createUserDirectory,
  type DevOutbox,
  type DocumentStore,
  type EventEnvelope,
  listen,
  loadOrCreateSigningKeys,
  newId,
  type ServiceEventStore,
} from '@nudge/platform';
import { type JsonReply, jsonCall } from '@nudge/platform/testing';
import type { NoticeSettings } from '../src/app/renewal-notices';
import type { RenewalScheduler } from '../src/app/renewal-workflows';
import type { UserRecords } from '../src/infra/auth-users';
import type { PaymentProvider } from '../src/infra/payment-provider';
import { createRazorpayProvider } from '../src/infra/razorpay-provider';
import {
  deliveryHeaders,
  epoch,
  type PaymentEntity,
  paymentEntity,
  razorpayId,
  type SignedDelivery,
  type SubscriptionEntity,
  signDelivery,
  subscriptionEntity,
  type WebhookEvent,
  webhookEvent,
} from '../src/infra/razorpay-webhooks';
import { createSimulatedRazorpay, type SimulatedRazorpay } from '../src/infra/simulated-razorpay';
import { type BillingService, createBillingService } from '../src/service';
import { type FakeRazorpayApi, startFakeRazorpayApi } from './fake-razorpay-api';

export const WEBHOOK_SECRET = 'whsec-test-0123456789abcdef';
export const PLAN_ID = 'plan_yearly0000000001';
export const DAY = 24 * 3600_000;

export interface TestUser {
  userId: string;
  email: string;
  role: Role;
  token: string;
}

/** A clock the test moves by hand. */
export function testClock(start = '2026-03-01T10:00:00.000Z') {
  let now = new Date(start);
  return {
    now: () => now,
    set(iso: string | Date) {
      now = new Date(iso);
    },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

export interface BillingHarness {
  url: string;
  service: BillingService;
  store: DocumentStore;
  events: ServiceEventStore;
  clock: ReturnType<typeof testClock>;
  /** Present with provider 'razorpay': the local Razorpay API the real client talks to. */
  api?: FakeRazorpayApi;
  /** Present with provider 'simulated'. */
  simulated?: SimulatedRazorpay;
  keyId: string;
  keySecret: string;
  /** A signed-in user, known to billing's user directory as auth's events would make them. */
  user(role?: Role, email?: string): Promise<TestUser>;
  /** Tells billing's directory that auth changed a user's role (as the RoleChanged event would). */
  changeRole(user: TestUser, role: Role): Promise<TestUser>;
  post(path: string, body: unknown, token?: string): Promise<JsonReply>;
  get(path: string, token?: string): Promise<JsonReply>;
  /** Sends a webhook as Razorpay would: raw body, signature, event id. Returns the reply and the delivery. */
  deliver(
    event: WebhookEvent,
    options?: { eventId?: string; secret?: string },
  ): Promise<JsonReply & { delivery: SignedDelivery }>;
  sendRaw(raw: string, headers: Record<string, string>): Promise<JsonReply>;
  /** The webhooks Razorpay sends when the first payment of `subscriptionId` succeeds at the clock's time. */
  firstPayment(
    subscriptionId: string,
    userId: string,
  ): { events: WebhookEvent[]; payment: PaymentEntity; subscription: SubscriptionEntity };
  /** subscription.charged for a renewal of the term starting at `start`. */
  renewal(subscriptionId: string, userId: string, start: Date, paidCount: number): WebhookEvent;
  subscription(id: string): Promise<any>;
  /** Renewal notices and any other mail billing sends. */
  outbox: DevOutbox;
  /** A second billing instance (another pod) on the same store and the same Razorpay; closed with the harness. */
  replica(): Promise<{ url: string; post(path: string, body: unknown, token?: string): Promise<JsonReply> }>;
  close(): Promise<void>;
}

/** The credential the harness's billing expects on /internal routes. */
export const BILLING_INTERNAL_TOKEN = 'b'.repeat(40);

export interface HarnessOptions {
  provider?: 'razorpay' | 'simulated';
  users?: UserRecords;
  start?: string;
  /** The renewal workflows' port (the embedded scheduler's timers in the workflows tests). */
  renewals?: RenewalScheduler;
  /** The site settings renewal notices are dressed in (content's, in production); default NOTICE_SETTINGS. */
  siteSettings?: () => Promise<NoticeSettings>;
}

/** The site settings the harness's notices use unless a test gives others (content's defaults, as served). */
export const NOTICE_SETTINGS: NoticeSettings = {
  sitetitle: 'Nudge',
  footersitetitle: 'Nudge',
  subjectprefix: '',
  emaillogo: '',
  headingcolor: '#111827',
  paragraphcolor: '#374151',
  buttoncolor: '#b91c1c',
  buttonfontcolor: '#ffffff',
  backgroundcolor: '#ffffff',
};

/** The billing service over real HTTP on port 0 with embedded adapters, a test clock and a chosen provider. */
export async function startBilling(options: HarnessOptions = {}): Promise<BillingHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-billing-'));
  const clock = testClock(options.start);
  const store = createEmbeddedStore({ dir: join(dir, 'billing') });
  const log = createLogger('billing-test', 'silent');
  const events = createEventStore({ store, service: 'billing', log, clock: clock.now });
  const keys = await loadOrCreateSigningKeys(dir);
  const issuer = createTokenIssuer(keys.privateKey, 30);
  const directory = createUserDirectory(store);

  let api: FakeRazorpayApi | undefined;
  let simulated: SimulatedRazorpay | undefined;
  let provider: PaymentProvider;
  let keyId: string;
  let keySecret: string;
  if ((options.provider ?? 'razorpay') === 'razorpay') {
    api = await startFakeRazorpayApi({ clock: clock.now });
    provider = createRazorpayProvider({ keyId: api.keyId, keySecret: api.keySecret, apiUrl: api.url });
    keyId = api.keyId;
    keySecret = api.keySecret;
  } else {
    simulated = createSimulatedRazorpay({ store, clock: clock.now });
    provider = simulated;
    keyId = 'rzp_test_simulated';
    keySecret = 'simulated-key-secret-0123456789';
  }

  const outboxStore = createEmbeddedStore({});
  const outbox = createDevOutbox(outboxStore);
  const build = (podEvents: ServiceEventStore, podProvider: PaymentProvider) =>
    createBillingService({
      store,
      events: podEvents,
      log,
      verifier: createTokenVerifier(keys.publicKey),
      directory,
      provider: podProvider,
      ...(simulated ? { simulated } : {}),
      keyId,
      keySecret,
      webhookSecret: WEBHOOK_SECRET,
      planId: PLAN_ID,
      ...(options.users ? { users: options.users } : {}),
      bodyLimit: '100kb',
      notices: {
        mail: captureMail(outbox),
        siteSettings: options.siteSettings ?? (async () => NOTICE_SETTINGS),
        publicUrl: 'https://nudge.example',
      },
      internalToken: BILLING_INTERNAL_TOKEN,
      clock: clock.now,
      ...(options.renewals ? { renewals: options.renewals } : {}),
    });
  const service = build(events, provider);
  await service.start();
  const replicas: Array<() => Promise<void>> = [];
  const { server, url } = await listen(service.app, 0);

  const versions = new Map<string, number>();
  const authEvent = (type: string, userId: string, data: Record<string, unknown>): EventEnvelope => {
    const version = (versions.get(userId) ?? 0) + 1;
    versions.set(userId, version);
    // Through the producer's contract schema, so a producer change fails this consumer's tests.
    const checked = checkEvent(type, { userId, ...data });
    return {
      id: newId(),
      type: checked.type,
      stream: `user-${userId}`,
      version,
      occurredAt: clock.now().toISOString(),
      actor: null,
      data: checked.data,
      meta: {},
    };
  };
  const roles = new Map<string, Role>();

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(url, method, path, body, token);
  const sendRaw = async (raw: string, headers: Record<string, string>) => {
    const res = await fetch(`${url}/api/payment/verification`, { method: 'POST', headers, body: raw });
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  };

  const harness: BillingHarness = {
    url,
    service,
    store,
    events,
    clock,
    ...(api ? { api } : {}),
    ...(simulated ? { simulated } : {}),
    keyId,
    keySecret,
    async user(role = 'user', email) {
      const userId = newId();
      const address = email ?? `reader-${userId.slice(-6)}@example.com`;
      await directory.handlers[AuthEvents.UserRegistered.type]!(
        authEvent(AuthEvents.UserRegistered.type, userId, {
          email: address,
          source: 'self',
          role,
          type: 0,
          notiinfo: { time: '08:00', active: true },
          topics: [],
          timeZone: 'Asia/Kolkata',
        }),
      );
      roles.set(userId, role);
      const token = await issuer.signSession({ userId, email: address, role });
      return { userId, email: address, role, token };
    },
    async changeRole(user, role) {
      await directory.handlers[AuthEvents.RoleChanged.type]!(
        authEvent(AuthEvents.RoleChanged.type, user.userId, {
          from: roles.get(user.userId),
          to: role,
          reason: 'test',
        }),
      );
      roles.set(user.userId, role);
      return { ...user, role };
    },
    post: (path, body, token) => call('POST', path, body, token),
    get: (path, token) => call('GET', path, undefined, token),
    async deliver(event, opts = {}) {
      const delivery = signDelivery(event, opts.secret ?? WEBHOOK_SECRET, opts.eventId);
      const reply = await sendRaw(delivery.raw, deliveryHeaders(delivery));
      return { ...reply, delivery };
    },
    sendRaw,
    firstPayment(subscriptionId, userId) {
      const now = clock.now();
      const end = new Date(now);
      end.setUTCFullYear(end.getUTCFullYear() + 1);
      const base = {
        id: subscriptionId,
        plan_id: PLAN_ID,
        notes: { userId },
        created_at: epoch(now),
        customer_id: 'cust_00000000000001',
      };
      const authenticated = subscriptionEntity({ ...base, status: 'authenticated' });
      const active = subscriptionEntity({
        ...base,
        status: 'active',
        current_start: epoch(now),
        current_end: epoch(end),
        charge_at: epoch(end),
        paid_count: 1,
      });
      const payment = paymentEntity({ id: razorpayId('pay'), amount: 250000, created_at: epoch(now) });
      return {
        payment,
        subscription: active,
        events: [
          webhookEvent('subscription.authenticated', { subscription: authenticated, payment }, now),
          webhookEvent('subscription.activated', { subscription: active, payment }, now),
          webhookEvent('subscription.charged', { subscription: active, payment }, now),
        ],
      };
    },
    renewal(subscriptionId, userId, start, paidCount) {
      const end = new Date(start);
      end.setUTCFullYear(end.getUTCFullYear() + 1);
      const subscription = subscriptionEntity({
        id: subscriptionId,
        plan_id: PLAN_ID,
        notes: { userId },
        status: 'active',
        current_start: epoch(start),
        current_end: epoch(end),
        charge_at: epoch(end),
        paid_count: paidCount,
        customer_id: 'cust_00000000000001',
      });
      const payment = paymentEntity({ id: razorpayId('pay'), amount: 250000, created_at: epoch(start) });
      return webhookEvent('subscription.charged', { subscription, payment }, clock.now());
    },
    subscription: (id) => store.collection('subscriptions').findOne({ _id: id }),
    outbox,
    async replica() {
      // Its own event store and provider client (as another pod has), over the same billing store and Razorpay.
      const podEvents = createEventStore({ store, service: 'billing', log, clock: clock.now });
      const podProvider = api
        ? createRazorpayProvider({ keyId: api.keyId, keySecret: api.keySecret, apiUrl: api.url })
        : provider;
      const pod = build(podEvents, podProvider);
      await pod.start();
      const listening = await listen(pod.app, 0);
      replicas.push(async () => {
        await closeServer(listening.server);
        podEvents.close();
      });
      return {
        url: listening.url,
        post: (path, body, token) => jsonCall(listening.url, 'POST', path, body, token),
      };
    },
    async close() {
      for (const closeReplica of replicas) await closeReplica();
      await outboxStore.close();
      await closeServer(server);
      await api?.close();
      events.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Checkout, then Razorpay's webhooks of a successful first payment: the reader is premium at the clock's time. */
export async function subscribe(h: BillingHarness, user: TestUser) {
  const checkout = await h.post('/api/payment/checkout', { token: user.token });
  if (checkout.status !== 200) throw new Error(`checkout failed: ${checkout.text}`);
  const subscriptionId: string = checkout.body.subscription.subscriptionId;
  const first = h.firstPayment(subscriptionId, user.userId);
  h.api?.activate(
    subscriptionId,
    new Date((first.subscription.current_start ?? 0) * 1000),
    new Date((first.subscription.current_end ?? 0) * 1000),
  );
  for (const event of first.events) {
    const reply = await h.deliver(event);
    if (reply.status !== 200) throw new Error(`webhook refused: ${reply.text}`);
  }
  return { subscriptionId, payment: first.payment, subscription: first.subscription };
}

/* biome-ignore-all lint/suspicious/noExplicitAny: replies and read models are walked freely in assertions */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, ContentEvents, checkEvent, type Role, type TemplateSnapshot } from '@nudge/contracts';
import {
  BUS_META,
  BUS_OFFSETS,
  closeServer,
  createEmbeddedStore,
  createEventStore,
  createInProcessBus,
  createLogger,
  createTokenIssuer,
  createTokenVerifier,
  type DocumentStore,
  type EventBus,
  type EventEnvelope,
  listen,
  loadOrCreateSigningKeys,
  newId,
  PROCESSED_EVENTS,
  requireInternal,
  type ServiceEventStore,
  sendIdOf,
  type TokenIssuer,
  toBusMessage,
  topicFor,
} from '@nudge/platform';
import { type JsonReply, jsonCall, until } from '@nudge/platform/testing';
import express from 'express';
import { expect } from 'vitest';
import { createEngagementConsumer, ENGAGEMENT_GROUP } from '../src/events/consumer';
import { createHttpAuthSessions } from '../src/infra/auth-client';
import { createEngagementService, type EngagementService } from '../src/service';

export const log = createLogger('engagement-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const INTERNAL_TOKEN = 'e'.repeat(40);
export const PUBLIC_URL = 'http://nudge.test';

/** One e-mail reminder send of `userId` on `localDate`, as the workflows record it (POST /internal/reminders/sent). */
export const sendOf = (userId: string, localDate: string) => ({
  sendId: sendIdOf(userId, localDate, 'email'),
  userId,
  channel: 'email' as const,
  localDate,
  templateId: 'b'.repeat(24),
  subjectId: 's1',
  subject: 'Breathe',
  slot: '08:00',
  timeZone: 'UTC',
  checkinQuestionId: null,
  locked: false,
  sentAt: '2026-11-24T08:00:01.000Z',
});

/** Waits until check() holds; fails after the deadline. Never a fixed sleep. */
export const waitFor = (check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5_000) =>
  until(check, what, timeoutMs, 10);

/** A stand-in for auth's internal session route (services/auth/src/http/internal-routes.ts), same request and answer. */
export interface FakeAuth {
  url: string;
  /**
   * 'ok' answers like auth; 'error' answers 500; 'unknown' answers 404 User not found; 'ended' answers 410 (the link
   * was sent before the user signed out).
   */
  mode: 'ok' | 'error' | 'unknown' | 'ended';
  calls: { userId: string; linkIssuedAt: string }[];
  /** What GET /internal/users/:id answers (names by user id; others: 404). */
  users: Map<string, { firstname: string; lastname: string }>;
  close(): Promise<void>;
}

export async function startFakeAuth(internalToken = INTERNAL_TOKEN): Promise<FakeAuth> {
  const app = express();
  app.use(express.json());
  const fake: FakeAuth = { url: '', mode: 'ok', calls: [], users: new Map(), close: async () => {} };
  app.use('/internal', requireInternal(internalToken));
  app.get('/internal/users/:id', (req, res) => {
    const names = fake.users.get(req.params.id);
    if (!names) res.status(404).json({ status: false, message: 'User not found' });
    else res.json({ status: true, user: { _id: req.params.id, ...names } });
  });
  app.post('/internal/tokens/session', (req, res) => {
    const { userId, linkIssuedAt } = req.body as { userId: string; linkIssuedAt: string };
    fake.calls.push({ userId, linkIssuedAt });
    if (fake.mode === 'error') {
      res.status(500).json({ status: false, message: 'boom' });
    } else if (fake.mode === 'unknown') {
      res.status(404).json({ status: false, message: 'User not found' });
    } else if (fake.mode === 'ended') {
      res.status(410).json({ status: false, message: 'This link was sent before the user signed out' });
    } else {
      res.json({
        status: true,
        token: `session-for-${userId}`,
        user: { _id: userId, email: `${userId}@x.test` },
      });
    }
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status((err as { httpStatus?: number }).httpStatus ?? 500).json({ status: false });
  });
  const { server, url } = await listen(app, 0);
  fake.url = url;
  fake.close = () => closeServer(server);
  return fake;
}

export interface TestUser {
  userId: string;
  email: string;
  token: string;
  role: Role;
}

export interface Harness {
  url: string;
  store: DocumentStore;
  events: ServiceEventStore;
  service: EngagementService;
  bus: EventBus;
  issuer: TokenIssuer;
  fakeAuth: FakeAuth;
  /** The injected clock; set `now` to move time. */
  clock: { now: Date };
  post(path: string, body?: unknown, token?: string): Promise<JsonReply>;
  get(path: string, token?: string): Promise<JsonReply>;
  /** Publishes events on a service's topic and waits until engagement's consumer has processed them. */
  deliver(service: 'auth' | 'content', events: EventEnvelope[]): Promise<void>;
  /** Builds an envelope on a stream with the next version of that stream (as the owning service would). */
  envelope(stream: string, type: string, data: unknown, occurredAt?: string): EventEnvelope;
  /** Registers a user through auth's events (names, role, time zone) and signs a session token for them. */
  user(opts?: {
    role?: Role;
    firstname?: string;
    lastname?: string;
    timeZone?: string;
    email?: string;
  }): Promise<TestUser>;
  /** Publishes a post (content.TemplateAdded.v1) and returns its id. */
  addPost(opts?: Partial<TemplateSnapshot>): Promise<string>;
  updatePost(templateId: string, changes: Partial<TemplateSnapshot>): Promise<void>;
  setSettings(settings: Record<string, unknown>): Promise<void>;
  /** content.PostOpened.v1 for a read. */
  opened(userId: string, templateId: string, type: 1 | 2, openedAt: string): Promise<EventEnvelope>;
  /** Every event engagement appended, in commit order. */
  ownEvents(type?: string): Promise<EventEnvelope[]>;
  /** Every envelope delivered to engagement so far, per topic, in order (for redelivery tests). */
  delivered: { auth: EventEnvelope[]; content: EventEnvelope[] };
  close(): Promise<void>;
}

export async function startEngagement(
  opts: { authUrl?: string; now?: Date; checkinLinkTtlDays?: number } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-engagement-'));
  const keys = await loadOrCreateSigningKeys(dir);
  const issuer = createTokenIssuer(keys.privateKey, 30);
  const clock = { now: opts.now ?? new Date('2026-03-10T12:00:00.000Z') };
  const store = createEmbeddedStore({});
  const busStore = createEmbeddedStore({});
  const bus = createInProcessBus({ store: busStore, retryBaseMs: 10, log });
  const events = createEventStore({ store, service: 'engagement', log, clock: () => clock.now });
  const fakeAuth = await startFakeAuth();
  const service = createEngagementService({
    store,
    events,
    verifier: createTokenVerifier(keys.publicKey),
    auth: createHttpAuthSessions({ baseUrl: opts.authUrl ?? fakeAuth.url, internalToken: INTERNAL_TOKEN }),
    internalToken: INTERNAL_TOKEN,
    log,
    publicUrl: PUBLIC_URL,
    bodyLimit: '100kb',
    checkinLinkTtlDays: opts.checkinLinkTtlDays ?? 14,
    clock: () => clock.now,
  });
  await service.start();
  const consumer = createEngagementConsumer({ store, bus, handlers: service.handlers, log });
  await consumer.start();
  const { server, url } = await listen(service.app, 0);

  const versions = new Map<string, number>();
  const delivered = { auth: [] as EventEnvelope[], content: [] as EventEnvelope[] };
  const processed = store.collection(PROCESSED_EVENTS);

  const envelope = (stream: string, type: string, data: unknown, occurredAt?: string): EventEnvelope => {
    const version = (versions.get(stream) ?? 0) + 1;
    versions.set(stream, version);
    // Through the producer's contract schema, so a producer change fails this consumer's tests.
    const checked = checkEvent(type, data);
    return {
      id: newId(),
      type: checked.type,
      stream,
      version,
      occurredAt: occurredAt ?? clock.now.toISOString(),
      actor: null,
      data: checked.data,
      meta: {},
    };
  };

  const busOffsets = busStore.collection<{ _id: string; offset: number }>(BUS_OFFSETS);
  const busCounters = busStore.collection<{ _id: string; value: number }>(BUS_META);
  /** Waits until engagement's group has committed every message published on the topic (so a redelivery was seen). */
  const deliver = async (svc: 'auth' | 'content', list: EventEnvelope[]) => {
    if (list.length === 0) return;
    const topic = topicFor(svc);
    await bus.publish(list.map((e) => toBusMessage(topic, e)));
    delivered[svc].push(...list);
    const end = (await busCounters.findOne({ _id: `offset:${topic}` }))?.value ?? 0;
    await waitFor(
      async () => ((await busOffsets.findOne({ _id: `${ENGAGEMENT_GROUP}:${topic}` }))?.offset ?? 0) >= end,
      `engagement to consume ${topic} up to offset ${end}`,
    );
    const last = list.at(-1);
    if (last) expect(await processed.findOne({ _id: `${ENGAGEMENT_GROUP}:${last.id}` })).toBeTruthy();
  };

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(url, method, path, body, token);

  let users = 0;
  const harness: Harness = {
    url,
    store,
    events,
    service,
    bus,
    issuer,
    fakeAuth,
    clock,
    delivered,
    post: (path, body, token) => call('POST', path, body ?? {}, token),
    get: (path, token) => call('GET', path, undefined, token),
    deliver,
    envelope,
    async user(o = {}) {
      users += 1;
      const userId = newId();
      const email = o.email ?? `reader${users}@example.com`;
      const role = o.role ?? 'user';
      const stream = `user-${userId}`;
      const list = [
        envelope(stream, AuthEvents.UserRegistered.type, {
          userId,
          email,
          source: 'self',
          role: 'user',
          type: 0,
          notiinfo: { time: '08:00', active: true },
          topics: [],
          timeZone: 'UTC',
        }),
      ];
      if (o.firstname !== '' || o.lastname !== '' || o.timeZone) {
        list.push(
          envelope(stream, AuthEvents.ProfileUpdated.type, {
            userId,
            ...(o.firstname !== '' ? { firstname: o.firstname ?? `First${users}` } : {}),
            ...(o.lastname !== '' ? { lastname: o.lastname ?? `Last${users}` } : {}),
            ...(o.timeZone ? { timeZone: o.timeZone } : {}),
          }),
        );
      }
      if (role !== 'user') {
        list.push(
          envelope(stream, AuthEvents.RoleChanged.type, { userId, from: 'user', to: role, reason: 'test' }),
        );
      }
      await deliver('auth', list);
      // The token says 'user': the service must take the current role from its directory.
      const token = await issuer.signSession({ userId, email, role: 'user' });
      return { userId, email, token, role };
    },
    async addPost(o = {}) {
      const templateId = o.templateId ?? newId();
      const snapshot: TemplateSnapshot = {
        templateId,
        heading: 'A heading',
        body: 'A body that is long enough to be previewed. '.repeat(10),
        image: '/api/media/img1',
        type: 0,
        topic: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        status: true,
        subjects: [],
        createdAt: clock.now.toISOString(),
        ...o,
      };
      await deliver('content', [
        envelope(`template-${templateId}`, ContentEvents.TemplateAdded.type, snapshot),
      ]);
      return templateId;
    },
    async updatePost(templateId, changes) {
      const current: any = await store.collection('posts').findOne({ _id: templateId });
      const snapshot: TemplateSnapshot = {
        templateId,
        heading: current.heading,
        body: current.body,
        image: current.image,
        type: current.type,
        topic: current.topic,
        status: current.status,
        subjects: [],
        createdAt: current.createdAt,
        ...changes,
      };
      await deliver('content', [
        envelope(`template-${templateId}`, ContentEvents.TemplateUpdated.type, snapshot),
      ]);
    },
    async setSettings(settings) {
      await deliver('content', [
        envelope('sitesettings', ContentEvents.SiteSettingsUpdated.type, { settings }),
      ]);
    },
    async opened(userId, templateId, type, openedAt) {
      const event = envelope(
        `read-${newId()}`,
        ContentEvents.PostOpened.type,
        { userId, templateId, type, openedAt },
        openedAt,
      );
      await deliver('content', [event]);
      return event;
    },
    async ownEvents(type) {
      const all: EventEnvelope[] = [];
      for await (const e of events.readAll()) if (!type || e.type === type) all.push(e);
      return all;
    },
    async close() {
      await closeServer(server as Server);
      await consumer.stop();
      await fakeAuth.close();
      events.close();
      await bus.close();
      await store.close();
      await busStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The documents of a collection, sorted by _id (for before/after comparisons). */
export const dump = async (store: DocumentStore, name: string) =>
  store.collection(name).find({}, { sort: { _id: 1 } });

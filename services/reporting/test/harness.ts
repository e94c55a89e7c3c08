/* biome-ignore-all lint/suspicious/noExplicitAny: replies are walked freely in assertions */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, type Role } from '@nudge/contracts';
import {
  BUS_META,
  BUS_OFFSETS,
  closeServer,
  createConsumer,
  createEmbeddedStore,
  createEventStore,
  createInProcessBus,
  createLogger,
  createTokenIssuer,
  createTokenVerifier,
  type EventBus,
  type EventEnvelope,
  listen,
  loadOrCreateSigningKeys,
  newId,
  type TokenIssuer,
  toBusMessage,
  topicFor,
} from '@nudge/platform';
import { type JsonReply, jsonCall, until } from '@nudge/platform/testing';
import type { z } from 'zod';
import { type AnalyticsStore, migrate, openChdbStore } from '../src/analytics';
import { createIngester, REPORTING_GROUP, REPORTING_SETTINGS_GROUP } from '../src/events/ingest';
import { createReportingService, type ReportingService } from '../src/service';

export const log = createLogger('reporting-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const INTERNAL_TOKEN = 'r'.repeat(40);

/** Waits until check() holds; fails after the deadline. Never a fixed sleep. */
export const waitFor = (check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 10_000) =>
  until(check, what, timeoutMs, 20);

/** The data of auth.UserRegistered.v1 for a self-registered reader. */
export const registeredData = (userId: string, email: string) => ({
  userId,
  email,
  source: 'self',
  role: 'user',
  type: 0,
  notiinfo: { time: '08:00', active: true },
  topics: [],
  timeZone: 'UTC',
});

/** An event definition of services/contracts (type + zod schema of its data). */
export type EventDef = { type: string; data: z.ZodType };

export interface TestUser {
  userId: string;
  email: string;
  token: string;
  role: Role;
}

export interface Harness {
  url: string;
  dir: string;
  analytics: AnalyticsStore;
  service: ReportingService;
  bus: EventBus;
  issuer: TokenIssuer;
  post(path: string, body?: unknown, token?: string): Promise<JsonReply>;
  get(path: string, token?: string): Promise<JsonReply>;
  put(path: string, body?: unknown, token?: string): Promise<JsonReply>;
  /** An envelope whose data is parsed by the event's own zod schema (never cast). */
  event(def: EventDef, data: unknown, occurredAt: string, stream?: string): EventEnvelope;
  /** Publishes on a service's topic and waits until reporting's group committed them (so they are inserted). */
  publish(service: 'auth' | 'content' | 'engagement' | 'billing', events: EventEnvelope[]): Promise<void>;
  /** Registers a user through auth's events at `registeredAt` and signs a token. */
  user(opts?: { role?: Role; registeredAt?: string; email?: string }): Promise<TestUser>;
  close(): Promise<void>;
}

/** Reporting over real HTTP on port 0, with chDB (real ClickHouse) in a temporary directory and an in-process bus. */
export async function startReporting(
  opts: { now?: Date; intakeEventsPerMinute?: number } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-reporting-'));
  const keys = await loadOrCreateSigningKeys(dir);
  const issuer = createTokenIssuer(keys.privateKey, 30);
  const now = opts.now ?? new Date('2026-11-20T12:00:00.000Z');
  const store = createEmbeddedStore({});
  const busStore = createEmbeddedStore({});
  const bus = createInProcessBus({ store: busStore, retryBaseMs: 10, log });
  const events = createEventStore({ store, service: 'reporting', log, clock: () => now });
  const analytics = await openChdbStore(join(dir, 'clickhouse'));
  await migrate(analytics);
  const service = createReportingService({
    store,
    events,
    analytics,
    verifier: createTokenVerifier(keys.publicKey),
    internalToken: INTERNAL_TOKEN,
    log,
    spoolDir: join(dir, 'spool'),
    clock: () => now,
    flushMs: 100,
    ...(opts.intakeEventsPerMinute ? { intakeEventsPerMinute: opts.intakeEventsPerMinute } : {}),
  });
  await service.start();
  const ingester = createIngester({ writer: service.writer, bus });
  await ingester.start();
  // The directory consumer, as boot.ts runs it (roles for authenticate()).
  const directory = createConsumer({
    store,
    bus,
    groupId: 'reporting-directory',
    topics: [topicFor('auth')],
    handlers: service.handlers,
    log,
  });
  await directory.start();
  // The site settings consumer, as boot.ts runs it (the web telemetry's retention).
  const settings = createConsumer({
    store,
    bus,
    groupId: REPORTING_SETTINGS_GROUP,
    topics: [topicFor('content')],
    handlers: service.retention.handlers,
    idempotentTypes: Object.keys(service.retention.handlers),
    log,
  });
  await settings.start();
  const { server, url }: { server: Server; url: string } = await listen(service.app, 0);

  const versions = new Map<string, number>();
  const busOffsets = busStore.collection<{ _id: string; offset: number }>(BUS_OFFSETS);
  const busCounters = busStore.collection<{ _id: string; value: number }>(BUS_META);

  const committed = async (group: string, topic: string) => {
    const end = (await busCounters.findOne({ _id: `offset:${topic}` }))?.value ?? 0;
    await waitFor(
      async () => ((await busOffsets.findOne({ _id: `${group}:${topic}` }))?.offset ?? 0) >= end,
      `${group} to consume ${topic} up to ${end}`,
    );
  };

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(url, method, path, body, token);

  const harness: Harness = {
    url,
    dir,
    analytics,
    service,
    bus,
    issuer,
    post: (path, body, token) => call('POST', path, body ?? {}, token),
    get: (path, token) => call('GET', path, undefined, token),
    put: (path, body, token) => call('PUT', path, body ?? {}, token),
    event(def, data, occurredAt, stream) {
      const s = stream ?? `test-${newId()}`;
      const version = (versions.get(s) ?? 0) + 1;
      versions.set(s, version);
      return {
        id: newId(),
        type: def.type,
        stream: s,
        version,
        occurredAt,
        actor: null,
        data: def.data.parse(data),
        meta: {},
      };
    },
    async publish(svc, list) {
      const topic = topicFor(svc);
      await bus.publish(list.map((e) => toBusMessage(topic, e)));
      await committed(REPORTING_GROUP, topic);
      if (svc === 'auth') await committed('reporting-directory', topic);
      if (svc === 'content') await committed(REPORTING_SETTINGS_GROUP, topic);
    },
    async user(o = {}) {
      const userId = newId();
      const email = o.email ?? `${userId}@example.com`;
      const role = o.role ?? 'user';
      const at = o.registeredAt ?? '2026-09-15T10:00:00.000Z';
      const stream = `user-${userId}`;
      const list = [harness.event(AuthEvents.UserRegistered, registeredData(userId, email), at, stream)];
      if (role !== 'user')
        list.push(
          harness.event(
            AuthEvents.RoleChanged,
            { userId, from: 'user', to: role, reason: 'test' },
            at,
            stream,
          ),
        );
      await harness.publish('auth', list);
      const token = await issuer.signSession({ userId, email, role: 'user' });
      return { userId, email, token, role };
    },
    async close() {
      await closeServer(server);
      await settings.stop();
      await directory.stop();
      await ingester.stop();
      await service.stop();
      await bus.close();
      await analytics.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

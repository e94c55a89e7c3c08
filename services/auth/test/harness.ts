import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  captureMail,
  captureWhatsApp,
  closeServer,
  createDevOutbox,
  createEmbeddedStore,
  createEventStore,
  createLogger,
  type DevOutbox,
  type DocumentStore,
  listen,
  loadOrCreateLinkSecret,
  loadOrCreateSigningKeys,
  type ServiceEventStore,
} from '@nudge/platform';
import { type JsonReply, jsonCall } from '@nudge/platform/testing';
import { type AuthService, type AuthServiceDeps, createAuthService } from '../src/service';

export interface AuthHarness {
  url: string;
  /** The temp data folder (its keys/ sign the sessions). */
  dataDir: string;
  outbox: DevOutbox;
  store: DocumentStore;
  events: ServiceEventStore;
  internalToken: string;
  /** The handlers of engagement's reminder facts (cold / autoactive), to feed events as the bus would. */
  reminderHandlers: AuthService['reminderHandlers'];
  post(path: string, body: unknown, token?: string): Promise<JsonReply>;
  get(path: string, token?: string): Promise<JsonReply>;
  put(path: string, token?: string): Promise<JsonReply>;
  /** The last code e-mailed or sent by WhatsApp to this address. */
  lastCode(to: string): Promise<string>;
  /** Signs in with a code as a person would; returns the session. */
  signIn(email: string): Promise<{ token: string; user: any }>;
  /**
   * Another auth instance (another pod, or this one after a restart) on the same store, with its own event store;
   * started (indexes, catch-up, start-time sweeps) and served on port 0; closed with the harness.
   */
  replica(): Promise<{ url: string; post(path: string, body: unknown, token?: string): Promise<JsonReply> }>;
  close(): Promise<void>;
}

/** The auth service over real HTTP on port 0 with embedded adapters (in a temp folder). */
export async function startAuth(overrides: Partial<AuthServiceDeps> = {}): Promise<AuthHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-auth-'));
  const store = createEmbeddedStore({ dir: join(dir, 'auth') });
  const outboxStore = createEmbeddedStore({});
  const log = createLogger('auth-test', 'silent');
  const events = createEventStore({ store, service: 'auth', log });
  const outbox = createDevOutbox(outboxStore);
  const internalToken = 'i'.repeat(40);
  const keys = await loadOrCreateSigningKeys(dir);
  const linkSecret = await loadOrCreateLinkSecret(dir);
  const build = (podEvents: ServiceEventStore) =>
    createAuthService({
      store,
      events: podEvents,
      mail: captureMail(outbox),
      whatsapp: captureWhatsApp(outbox),
      keys,
      linkSecrets: { current: linkSecret },
      internalToken,
      codeSecret: 'test-secret',
      log,
      publicUrl: 'http://localhost:8080',
      adminEmails: ['boss@example.com'],
      sessionTtlDays: 30,
      bodyLimit: '100kb',
      codeLimitPerHour: 5,
      codeIpLimitPerHour: 1000,
      redirectAllowlist: [],
      ...overrides,
    });
  const service = build(events);
  await service.start();
  const { server, url } = await listen(service.app, 0);
  const replicas: Array<() => Promise<void>> = [];

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(url, method, path, body, token);

  const lastCode = async (to: string) => {
    const messages = await outbox.list();
    const message = messages.find((m) => m.to === to);
    const code = message?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code sent to ${to}`);
    return code;
  };

  return {
    url,
    dataDir: dir,
    outbox,
    store,
    events,
    internalToken,
    reminderHandlers: service.reminderHandlers,
    post: (path, body, token) => call('POST', path, body, token),
    get: (path, token) => call('GET', path, undefined, token),
    put: (path, token) => call('PUT', path, undefined, token),
    lastCode,
    async signIn(email) {
      const sent = await call('POST', '/api/user/auth', { email });
      if (sent.status !== 200) throw new Error(`auth failed: ${sent.text}`);
      const verified = await call('POST', '/api/user/verify', { email, otp: await lastCode(email) });
      if (verified.status !== 200) throw new Error(`verify failed: ${verified.text}`);
      return { token: verified.body.token, user: verified.body.user };
    },
    async replica() {
      const podEvents = createEventStore({ store, service: 'auth', log });
      const pod = build(podEvents);
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
      await closeServer(server);
      events.close();
      await store.close();
      await outboxStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

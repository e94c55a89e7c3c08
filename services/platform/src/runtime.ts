import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createEventBus } from './bus';
import { type Config, ConfigError } from './config';
import { createEventStore, createRelay, type ServiceEventStore } from './events';
import type { EventBus } from './events/types';
import {
  captureMail,
  captureWhatsApp,
  createDevOutbox,
  createSmtpMailSender,
  createTwilioWhatsAppSender,
  type DevOutbox,
  type MailSender,
  openFileOutbox,
  type WhatsAppSender,
} from './messaging';
import { loadOrCreateSecret } from './secrets';
import { createDocumentStore, type DocumentStore } from './store';
import { importSigningKeys, importVerifyKey, loadOrCreateSigningKeys, type SigningKeys } from './tokens';

/** What every service process has: its own store, its event store and the relay to the bus. */
export interface ServiceRuntime {
  store: DocumentStore;
  events: ServiceEventStore;
  /** Starts the relay (after the service's start, so catch-up has run). */
  start(): void;
  /** Publishes what is pending, stops the relay, closes the store. */
  close(): Promise<void>;
}

export async function openServiceRuntime(opts: {
  service: string;
  config: Config;
  bus: EventBus;
  log: Logger;
}): Promise<ServiceRuntime> {
  const { service, config, bus, log } = opts;
  const store = await createDocumentStore({
    kind: config.DOCUMENT_STORE,
    dir: join(config.DATA_DIR, service),
    ...(config.MONGODB_URL ? { mongoUrl: config.MONGODB_URL } : {}),
    dbName: `${config.MONGODB_DB_PREFIX}_${service}`,
  });
  const events = createEventStore({ store, service, log: log.child({ part: 'events' }) });
  const relay = createRelay({ store, eventStore: events, bus, service, log: log.child({ part: 'relay' }) });
  return {
    store,
    events,
    start: () => relay.start(),
    async close() {
      await relay
        .flush()
        .catch((err: unknown) =>
          log.warn({ err }, 'relay flush at shutdown failed; the next start publishes the rest'),
        );
      await relay.stop();
      events.close();
      await store.close();
    },
  };
}

/**
 * For admin commands on embedded files: the embedded stores are one process's files, and writing them beside a
 * running `npm start` (DATA_DIR/standalone.pid names a live process) would lose data. Throws a ConfigError
 * ending with `advice`; a stale pid file (from a crash) is ignored.
 */
export function refuseWhileRunning(dataDir: string, advice: string): void {
  const lock = join(dataDir, 'standalone.pid');
  if (!existsSync(lock)) return;
  const pid = Number(readFileSync(lock, 'utf8'));
  try {
    process.kill(pid, 0);
  } catch {
    return; // a stale lock from a crash
  }
  throw new ConfigError([`Nudge is running (pid ${pid}) on ${dataDir}: ${advice}`]);
}

/** The process-wide bus: Kafka when configured, else the durable in-process bus under DATA_DIR/bus. */
export async function openEventBus(
  config: Config,
  log: Logger,
): Promise<{ bus: EventBus; close(): Promise<void> }> {
  const retry = {
    maxAttempts: config.BUS_MAX_ATTEMPTS,
    retryBaseMs: config.BUS_RETRY_BASE_MS,
    retryMaxMs: config.BUS_RETRY_MAX_MS,
  };
  if (config.EVENT_BUS === 'kafka') {
    const bus = createEventBus({
      kind: 'kafka',
      brokers: config.KAFKA_BROKERS ?? [],
      clientId: config.KAFKA_CLIENT_ID,
      ...retry,
      log,
    });
    return { bus, close: () => bus.close() };
  }
  const store = await createDocumentStore({
    kind: 'embedded',
    dir: join(config.DATA_DIR, 'bus'),
    dbName: 'bus',
  });
  const bus = createEventBus({ kind: 'inprocess', store, clientId: config.KAFKA_CLIENT_ID, ...retry, log });
  return {
    bus,
    async close() {
      await bus.close();
      await store.close();
    },
  };
}

export interface Secrets {
  keys: SigningKeys;
  internalToken: string;
  /** Keys HMACs of stored one-time codes; derived, so there is no extra variable to manage. */
  codeSecret: string;
}

/** Signing keys and the internal credential: from the environment, or generated once under DATA_DIR (embedded). */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const keys =
    config.TOKEN_PRIVATE_KEY && config.TOKEN_PUBLIC_KEY
      ? await importSigningKeys(pem(config.TOKEN_PRIVATE_KEY), pem(config.TOKEN_PUBLIC_KEY))
      : await loadOrCreateSigningKeys(config.DATA_DIR);
  const internalToken = await loadInternalToken(config);
  const codeSecret = createHmac('sha256', internalToken).update('one-time-codes').digest('hex');
  return { keys, internalToken, codeSecret };
}

/** The credential of /internal calls: INTERNAL_SERVICE_TOKEN, or generated once under DATA_DIR (embedded). */
export async function loadInternalToken(config: Config): Promise<string> {
  return (
    config.INTERNAL_SERVICE_TOKEN ?? (await loadOrCreateSecret(config.DATA_DIR, 'internal-service-token'))
  );
}

/** Services other than auth verify tokens with the public key only. */
export async function loadVerifyKey(config: Config) {
  if (config.TOKEN_PUBLIC_KEY) return importVerifyKey(pem(config.TOKEN_PUBLIC_KEY));
  return (await loadOrCreateSigningKeys(config.DATA_DIR)).publicKey;
}

/** PEMs in environment variables often arrive with literal \n. */
const pem = (value: string) => value.replace(/\\n/g, '\n');

export interface Messaging {
  mail: MailSender;
  whatsapp: WhatsAppSender;
  /** Present in the embedded topology: everything sent is captured here instead. */
  outbox?: DevOutbox;
}

/** The capture outbox: a DevOutbox (the standalone's files, openDevOutbox), or a document store to keep it in. */
export function createMessaging(config: Config, outboxStore?: DocumentStore | DevOutbox): Messaging {
  const outbox = !outboxStore
    ? undefined
    : 'record' in outboxStore
      ? outboxStore
      : createDevOutbox(outboxStore);
  const needOutbox = () => {
    if (!outbox) throw new Error('capture transports need the dev outbox store');
    return outbox;
  };
  const mail =
    config.MAIL_TRANSPORT === 'smtp' && config.SMTP_URL
      ? createSmtpMailSender(config.SMTP_URL, config.MAIL_FROM)
      : captureMail(needOutbox());
  const whatsapp =
    config.WHATSAPP_TRANSPORT === 'twilio'
      ? createTwilioWhatsAppSender({
          accountSid: config.TWILIO_ACCOUNT_SID ?? '',
          authToken: config.TWILIO_AUTH_TOKEN ?? '',
          from: config.TWILIO_WHATSAPP_FROM ?? '',
        })
      : captureWhatsApp(needOutbox());
  return { mail, whatsapp, ...(outbox ? { outbox } : {}) };
}

/** Listens and resolves with the server and its base URL (port 0 = any free port). */
export async function listen(
  app: Express,
  port: number,
  host = '127.0.0.1',
): Promise<{ server: Server; url: string }> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return { server, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}` };
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Where captured messages are kept: DATA_DIR/outbox embedded, or its own database on MongoDB. */
/**
 * The dev outbox of a process: with the embedded store, append-only files under DATA_DIR/outbox (bodies stay on
 * disk, so 100,000 reminders fit); with MongoDB, a collection of the outbox database.
 */
export async function openDevOutbox(config: Config): Promise<{ outbox: DevOutbox; close(): Promise<void> }> {
  if (config.DOCUMENT_STORE === 'embedded') {
    const outbox = await openFileOutbox(join(config.DATA_DIR, 'outbox'));
    return { outbox, close: () => outbox.close() };
  }
  const store = await openOutboxStore(config);
  return { outbox: createDevOutbox(store), close: () => store.close() };
}

export function openOutboxStore(config: Config): Promise<DocumentStore> {
  return createDocumentStore({
    kind: config.DOCUMENT_STORE,
    dir: join(config.DATA_DIR, 'outbox'),
    ...(config.MONGODB_URL ? { mongoUrl: config.MONGODB_URL } : {}),
    dbName: `${config.MONGODB_DB_PREFIX}_outbox`,
  });
}

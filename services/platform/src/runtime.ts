import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createEventBus } from './bus';
import { type Config, ConfigError, dkimKeyOf, kafkaSecurity, pemOf } from './config';
import { createEventStore, createRelay, type ServiceEventStore } from './events';
import { PENDING, pendingRange } from './events/commits';
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
import { processMetrics } from './metrics';
import { bindKeyring, createKeyring, type Keyring } from './privacy/keyring';
import { loadOrCreateSecret } from './secrets';
import { applyServerTimeouts, DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts';
import { createDocumentStore, type DocumentStore } from './store';
import {
  importSigningKeys,
  importVerifyKey,
  type LinkSecrets,
  loadOrCreateLinkSecret,
  loadOrCreateSigningKeys,
  type SigningKeys,
} from './tokens';

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
  bindKeyring(store, await keyringFor(config));
  const events = createEventStore({ store, service, log: log.child({ part: 'events' }) });
  const relay = createRelay({
    store,
    eventStore: events,
    bus,
    service,
    log: log.child({ part: 'relay' }),
    leaseMs: config.RELAY_LEASE_MS,
    // Embedded files belong to one process at a time, so the relay that opens them is the only one: a fixed holder
    // lets a process restarted after a crash take its lease back at once instead of waiting for it to expire.
    ...(store.kind === 'embedded' ? { holder: `embedded-${service}` } : {}),
  });
  const unregister = processMetrics().addRelay(service, () =>
    store.collection(PENDING).countDocuments(pendingRange('pub')),
  );
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
      unregister();
      events.close();
      await store.close();
    },
  };
}

const keyrings = new Map<string, Promise<Keyring>>();

/**
 * The deployment's keyring (crypto-shredding of personal fields): one key store for every process of a deployment,
 * `READER_KEYS_DIR` (default `DATA_DIR/reader-keys`) embedded or the `<prefix>_reader_keys` database, opened once per
 * process and location and shared by the services of the process. A process with a key store of its own could not
 * open what another sealed (the bus carries the sealed form).
 */
export function keyringFor(config: Config): Promise<Keyring> {
  const dir = config.READER_KEYS_DIR ?? join(config.DATA_DIR, 'reader-keys');
  const where =
    config.DOCUMENT_STORE === 'embedded'
      ? dir
      : `${config.MONGODB_URL}/${config.MONGODB_DB_PREFIX}_reader_keys`;
  let keyring = keyrings.get(where);
  if (!keyring) {
    keyring = createDocumentStore({
      kind: config.DOCUMENT_STORE,
      dir,
      ...(config.MONGODB_URL ? { mongoUrl: config.MONGODB_URL } : {}),
      dbName: `${config.MONGODB_DB_PREFIX}_reader_keys`,
    }).then((store) => createKeyring(store));
    keyring.catch(() => keyrings.delete(where));
    keyrings.set(where, keyring);
  }
  return keyring;
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
    lanes: config.BUS_LANES,
  };
  if (config.EVENT_BUS === 'kafka') {
    const bus = createEventBus({
      kind: 'kafka',
      brokers: config.KAFKA_BROKERS ?? [],
      clientId: config.KAFKA_CLIENT_ID,
      ...kafkaSecurity(config),
      topics: {
        partitions: config.KAFKA_TOPIC_PARTITIONS,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        ...(config.KAFKA_MIN_INSYNC_REPLICAS ? { minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS } : {}),
      },
      ...retry,
      log,
    });
    const unregister = processMetrics().addBus(bus);
    return {
      bus,
      close: () => {
        unregister();
        return bus.close();
      },
    };
  }
  const store = await createDocumentStore({
    kind: 'embedded',
    dir: join(config.DATA_DIR, 'bus'),
    dbName: 'bus',
  });
  const bus = createEventBus({
    kind: 'inprocess',
    store,
    clientId: config.KAFKA_CLIENT_ID,
    logRetentionMs: config.BUS_LOG_RETENTION_MS,
    ...retry,
    log,
  });
  const unregister = processMetrics().addBus(bus);
  return {
    bus,
    async close() {
      unregister();
      await bus.close();
      await store.close();
    },
  };
}

export interface Secrets {
  keys: SigningKeys;
  /** Signs and verifies e-mail link tokens (auth only). */
  linkSecrets: LinkSecrets;
  internalToken: string;
  /** Keys HMACs of stored one-time codes; derived, so there is no extra variable to manage. */
  codeSecret: string;
}

/** Signing keys and the internal credential: from the environment, or generated once under DATA_DIR (embedded). */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const keys =
    config.TOKEN_PRIVATE_KEY && config.TOKEN_PUBLIC_KEY
      ? await importSigningKeys(pemOf(config.TOKEN_PRIVATE_KEY), pemOf(config.TOKEN_PUBLIC_KEY))
      : await loadOrCreateSigningKeys(notInProduction(config, 'TOKEN_PRIVATE_KEY'));
  const linkSecrets = await loadLinkSecrets(config);
  const internalToken = await loadInternalToken(config);
  const codeSecret = createHmac('sha256', internalToken).update('one-time-codes').digest('hex');
  return { keys, linkSecrets, internalToken, codeSecret };
}

/** The link token secret: LINK_TOKEN_SECRET (and the previous one), or generated once under DATA_DIR (embedded). */
export async function loadLinkSecrets(config: Config): Promise<LinkSecrets> {
  const current =
    config.LINK_TOKEN_SECRET ?? (await loadOrCreateLinkSecret(notInProduction(config, 'LINK_TOKEN_SECRET')));
  return config.LINK_TOKEN_SECRET_PREVIOUS
    ? { current, previous: config.LINK_TOKEN_SECRET_PREVIOUS }
    : { current };
}

/** The credential of /internal calls: INTERNAL_SERVICE_TOKEN, or generated once under DATA_DIR (embedded). */
export async function loadInternalToken(config: Config): Promise<string> {
  return (
    config.INTERNAL_SERVICE_TOKEN ??
    (await loadOrCreateSecret(notInProduction(config, 'INTERNAL_SERVICE_TOKEN'), 'internal-service-token'))
  );
}

/** Services other than auth verify tokens with the public key only. */
export async function loadVerifyKey(config: Config) {
  if (config.TOKEN_PUBLIC_KEY) return importVerifyKey(pemOf(config.TOKEN_PUBLIC_KEY));
  return (await loadOrCreateSigningKeys(notInProduction(config, 'TOKEN_PUBLIC_KEY'))).publicKey;
}

/**
 * DATA_DIR, where a key or secret is generated once (embedded topology); in production a ConfigError naming the
 * variable instead: every pod would generate its own (the last line behind loadConfig's production checks).
 */
function notInProduction(config: Config, key: string): string {
  if (config.NODE_ENV === 'production' || config.DISTRIBUTED_TEST === 'on')
    throw new ConfigError([
      `${key}: required when ${config.NODE_ENV === 'production' ? 'NODE_ENV=production' : 'DISTRIBUTED_TEST=on'} (not generated at start)`,
    ]);
  return config.DATA_DIR;
}

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
  const dkim = dkimKeyOf(config);
  const mail =
    config.MAIL_TRANSPORT === 'smtp' && config.SMTP_URL
      ? createSmtpMailSender(config.SMTP_URL, config.MAIL_FROM, {
          poolSize: config.SMTP_POOL_SIZE,
          ratePerSecond: config.MAIL_RATE_PER_SECOND,
          ...(dkim ? { dkim } : {}),
        })
      : captureMail(needOutbox(), dkim ? { from: config.MAIL_FROM, dkim } : undefined);
  const whatsapp =
    config.WHATSAPP_TRANSPORT === 'twilio'
      ? createTwilioWhatsAppSender({
          accountSid: config.TWILIO_ACCOUNT_SID ?? '',
          authToken: config.TWILIO_AUTH_TOKEN ?? '',
          from: config.TWILIO_WHATSAPP_FROM ?? '',
          ratePerSecond: config.WHATSAPP_RATE_PER_SECOND,
        })
      : captureWhatsApp(needOutbox());
  return { mail, whatsapp, ...(outbox ? { outbox } : {}) };
}

/** Listens and resolves with the server and its base URL (port 0 = any free port). */
export async function listen(
  app: RequestListener,
  port: number,
  host = '127.0.0.1',
  timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS,
): Promise<{ server: Server; url: string }> {
  const server = createServer(app);
  applyServerTimeouts(server, timeouts);
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return { server, url: `http://${urlHost(host)}:${address.port}` };
}

/** The host of a URL that reaches a server listening on `host`: loopback for every interface, IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Graceful stop of an HTTP server (SIGTERM): stops accepting connections at once, lets the requests in flight finish,
 * answers requests that still arrive on open keep-alive connections with `Connection: close`, closes connections
 * that are idle (after a short grace), and after `timeoutMs` closes whatever is left. Resolves when every connection
 * is closed.
 *
 * The grace: Node counts a connection as idle until the first bytes of a request are parsed, so closing idle
 * connections at once (as `server.close()` itself does) would reset a connection accepted a moment ago whose request
 * is still on its way. Idle connections are closed from IDLE_GRACE_MS on instead.
 */
export async function drainServer(server: Server, timeoutMs: number): Promise<void> {
  if (!server.listening) return;
  const closeAfter: RequestListener = (_req, res) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };
  server.prependListener('request', closeAfter);
  const closeIdle = () => server.closeIdleConnections();
  // server.close() calls closeIdleConnections(): hold that call back for the grace period.
  server.closeIdleConnections = () => undefined;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Removes the own property again, so the prototype's method applies.
  delete (server as Partial<Pick<Server, 'closeIdleConnections'>>).closeIdleConnections;
  let idle: NodeJS.Timeout | undefined;
  const grace = setTimeout(
    () => {
      closeIdle();
      idle = setInterval(closeIdle, 50);
    },
    Math.min(IDLE_GRACE_MS, timeoutMs),
  );
  const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearTimeout(grace);
    clearInterval(idle);
    clearTimeout(deadline);
    server.off('request', closeAfter);
  }
}

const IDLE_GRACE_MS = 1_000;

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

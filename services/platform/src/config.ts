import { createPrivateKey } from 'node:crypto';
import { isIP } from 'node:net';
import bytes from 'bytes';
import { z } from 'zod';
import { type DkimKey, domainOf } from './messaging/compose';

const port = z.coerce.number().int().min(0).max(65535);
const url = z.string().url();
const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/** A link token secret: at least 32 characters, used as given; a PEM (a key pasted in the wrong place) is refused. */
const linkSecret = z
  .string()
  .min(32)
  .refine(
    (s) => !s.includes('-----BEGIN'),
    'a secret, not a PEM key (only auth holds it; never a key of the pair)',
  )
  .optional();

/** An entry of TRUSTED_PROXIES: one of express's names for address ranges, an IP address, or a CIDR range. */
export const isTrustedProxyEntry = (entry: string): boolean => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * Every configuration variable of every process, with its default. The composition roots (main.ts files)
 * are the only readers of the environment; they call loadConfig() once at start.
 * The README's configuration table and the docker-compose test are checked against this schema's keys.
 */
export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      'Runtime mode. production turns off development-only features such as the dev outbox, and refuses to start on an embedded adapter, a generated key or a missing secret (each process names the variable).',
    ),
  DISTRIBUTED_TEST: z
    .enum(['off', 'on'])
    .default('off')
    .describe(
      "on: the distributed test topology (npm test's *.dist.test.ts, scripts/topology): each container process runs with production's checks (Kafka, Temporal, secrets given, never generated) except for the engines a test machine has none of: documents on the process's own embedded store under DATA_DIR instead of MongoDB, analytics on chDB instead of a ClickHouse server, mail captured instead of SMTP. Refused with NODE_ENV=production.",
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('Minimum level of the JSON logs written to stdout.'),
  PORT: port.default(8080).describe("The gateway's port."),
  HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe(
      "The address the standalone process's gateway listens on: 127.0.0.1 serves this machine only; 0.0.0.0 (or ::, or one of the machine's addresses) opens it to the network. The container topology always listens on every interface.",
    ),
  DEV_OUTBOX_REMOTE: z
    .enum(['off', 'on'])
    .default('off')
    .describe(
      'Standalone: whether other machines may read /api/dev/outbox (every captured e-mail, sign-in codes included) when HOST opens the gateway to the network. off answers them 403: only callers on this machine read it.',
    ),
  DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .describe('Where embedded adapters keep their files, keys and secrets.'),
  READER_KEYS_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Embedded stores only: the folder of the readers' keys (personal fields are sealed with them), shared by every process of one deployment. Default DATA_DIR/reader-keys.",
    ),
  PUBLIC_URL: url
    .default('http://localhost:8080')
    .describe(
      'The address people reach the product at: used in e-mail links, redirects and the link previews of shared posts (never the Host a request names).',
    ),

  DOCUMENT_STORE: z
    .enum(['embedded', 'mongodb'])
    .default('embedded')
    .describe('Document store adapter: embedded files under DATA_DIR, or MongoDB.'),
  MONGODB_URL: url.optional().describe('MongoDB connection string. Required when DOCUMENT_STORE=mongodb.'),
  MONGODB_DB_PREFIX: z
    .string()
    .default('nudge')
    .describe('Prefix of the MongoDB database names the services use.'),
  ANALYTICS_STORE: z
    .enum(['embedded', 'clickhouse'])
    .default('embedded')
    .describe(
      "Reporting's analytics store: embedded ClickHouse (chDB in a child process of reporting, files under DATA_DIR/reporting/clickhouse), or a ClickHouse server.",
    ),
  ANALYTICS_IDLE_STOP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60)
    .describe(
      'Embedded analytics (chDB): seconds without a query or an insert after which its process stops to give back its memory (about 270 MB); the next report or ingest starts it again, in about a second. 0 keeps it running.',
    ),
  ANALYTICS_MIGRATE_AT_START: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      "on: reporting applies the pending ClickHouse migrations at its start (one process: npm start). off: a ClickHouse server's migrations are the one-shot migration step's alone (docker-compose's reporting-migrate, Kubernetes' setup Job), run once per release before the new pods, with a request timeout of hours instead of 30 s; reporting's start then refuses a schema that is behind, naming the migrations pending. chDB belongs to its reporting process, which always migrates it.",
    ),
  CLICKHOUSE_URL: url
    .optional()
    .describe(
      'ClickHouse server HTTP(S) address, e.g. http://clickhouse:8123. Required when ANALYTICS_STORE=clickhouse.',
    ),
  CLICKHOUSE_USER: z.string().default('default').describe('ClickHouse user reporting signs in as.'),
  CLICKHOUSE_PASSWORD: z.string().default('').describe('Password of CLICKHOUSE_USER.'),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier')
    .default('nudge_reporting')
    .describe('ClickHouse database of the reporting tables (created at start if missing).'),
  EVENT_BUS: z
    .enum(['inprocess', 'kafka'])
    .default('inprocess')
    .describe('Event bus adapter: in-process (single process only) or Kafka.'),
  KAFKA_BROKERS: csv
    .optional()
    .describe('Comma-separated Kafka bootstrap brokers (host:port). Required when EVENT_BUS=kafka.'),
  KAFKA_CLIENT_ID: z.string().default('nudge').describe('Client id this process presents to Kafka.'),
  KAFKA_TOPIC_PARTITIONS: z.coerce
    .number()
    .int()
    .min(1)
    .default(12)
    .describe(
      "Partitions of each topic the services create: at least the most replicas any consumer group runs (the autoscaler's maxReplicas, 8), or the replicas past it sit idle. Existing topics keep theirs (kafka-topics --alter adds partitions).",
    ),
  KAFKA_REPLICATION_FACTOR: z.coerce
    .number()
    .int()
    .min(-1)
    .default(-1)
    .refine((n) => n !== 0, 'at least 1, or -1 for the broker default')
    .describe(
      "Replicas of each partition of the topics the services create; -1 takes the broker's default.replication.factor. Production: 3, so a broker can fail without losing an acknowledged event.",
    ),
  KAFKA_MIN_INSYNC_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "min.insync.replicas of the topics the services create (the producer writes with acks=all); unset takes the broker's default. Production: 2 with a replication factor of 3.",
    ),
  KAFKA_SSL: z
    .enum(['off', 'on'])
    .default('off')
    .describe('on: TLS to the Kafka brokers (managed Kafka); the system CAs, or KAFKA_SSL_CA.'),
  KAFKA_SSL_CA: z
    .string()
    .optional()
    .describe(
      "PEM of the CA that signed the brokers' certificates, when it is not a public one (KAFKA_SSL=on).",
    ),
  KAFKA_SASL_MECHANISM: z
    .enum(['none', 'plain', 'scram-sha-256', 'scram-sha-512'])
    .default('none')
    .describe('SASL mechanism the Kafka brokers ask for; none = no SASL. With plain, set KAFKA_SSL=on too.'),
  KAFKA_SASL_USERNAME: z.string().optional().describe('SASL user name (with KAFKA_SASL_MECHANISM).'),
  KAFKA_SASL_PASSWORD: z.string().optional().describe('SASL password (with KAFKA_SASL_MECHANISM).'),
  KAFKA_ALLOW_PLAINTEXT: z
    .enum(['off', 'on'])
    .default('off')
    .describe(
      'on: NODE_ENV=production accepts Kafka without TLS (a broker on a private network of its own, as the local overlay and docker-compose run it). Off, production refuses KAFKA_SSL=off.',
    ),
  BUS_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .default(8)
    .describe(
      'Attempts of an event whose handler throws (both buses) before it is dead-lettered and its consumer group moves on; `npm run bus -- replay-dead-letters` puts dead letters back.',
    ),
  BUS_RETRY_BASE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(200)
    .describe(
      'Backoff before the second attempt of a failed event (ms); it doubles on each further attempt.',
    ),
  BUS_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30_000)
    .describe('Cap of the backoff between attempts of a failed event (ms).'),
  BUS_LANES: z.coerce
    .number()
    .int()
    .min(1)
    .default(32)
    .describe(
      "How many keys (streams) of a consumer group's events are handled at the same time: events of one key always one after another, in order. In-process bus: keys of a page at once; Kafka: partitions at once. 1 handles one event at a time.",
    ),
  RELAY_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(10_000)
    .describe(
      "Time to live of a service's relay lease (ms): of a service's replicas only the holder publishes events; when it dies, another takes over within this time.",
    ),
  BUS_LOG_RETENTION_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60_000)
    .describe(
      'In-process bus: how long a message stays in the log after every consumer group of its topic has consumed it (ms); then it is deleted, so the log stays proportional to unconsumed traffic. A group that has not consumed a message always keeps it.',
    ),
  MAIL_TRANSPORT: z
    .enum(['capture', 'smtp'])
    .default('capture')
    .describe('How e-mail is sent: captured to the dev outbox, or through SMTP.'),
  SMTP_URL: url
    .optional()
    .describe('SMTP server URL, e.g. smtps://user:pass@host:465. Required when MAIL_TRANSPORT=smtp.'),
  MAIL_FROM: z.string().default('Nudge <no-reply@nudge.local>').describe('Sender address of every e-mail.'),
  SMTP_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(5)
    .describe('SMTP connections kept open and reused per process (nodemailer pool).'),
  MAIL_RATE_PER_SECOND: z.coerce
    .number()
    .min(0)
    .default(0)
    .describe(
      "E-mails a second each process hands to the SMTP server at most (0: no limit). Your provider's sending rate divided by the processes that send (the workflows worker's replicas): a new Amazon SES account allows 14 a second, a warmed one hundreds. A throttling answer (421, 451, 454) is waited out in any case.",
    ),
  DKIM_DOMAIN: z
    .string()
    .optional()
    .describe(
      "Domain that signs every e-mail (DKIM d=): MAIL_FROM's domain or a parent of it, so DMARC aligns. Set, every e-mail is signed and none is sent unsigned; DKIM_SELECTOR and DKIM_PRIVATE_KEY are then required. Unset, e-mail goes out unsigned (Gmail, Yahoo and Outlook junk or refuse unsigned bulk mail).",
    ),
  DKIM_SELECTOR: z
    .string()
    .optional()
    .describe(
      'DKIM selector: the public key is published as a TXT record at <selector>._domainkey.<DKIM_DOMAIN>.',
    ),
  DKIM_PRIVATE_KEY: z
    .string()
    .optional()
    .describe('PEM RSA private key (2048 bits or more) that signs e-mail for DKIM_DOMAIN.'),
  WHATSAPP_TRANSPORT: z
    .enum(['capture', 'twilio'])
    .default('capture')
    .describe('How WhatsApp messages are sent: captured to the dev outbox, or through Twilio.'),
  WHATSAPP_RATE_PER_SECOND: z.coerce
    .number()
    .min(0)
    .default(80)
    .describe(
      'WhatsApp messages a second each process sends at most (0: no limit). The Cloud API allows 80 a second per business number by default: divide by the processes that send. A 429 answer is waited out in any case.',
    ),
  WHATSAPP_DAILY_RECIPIENTS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(
      'Distinct WhatsApp recipients a day at most, across all processes (0: no limit). A new WhatsApp Business account may reach 250 a day until Meta raises its tier; reminders beyond it are not sent and are counted.',
    ),
  TWILIO_ACCOUNT_SID: z
    .string()
    .optional()
    .describe('Twilio account SID. Required when WHATSAPP_TRANSPORT=twilio.'),
  TWILIO_AUTH_TOKEN: z
    .string()
    .optional()
    .describe('Twilio auth token. Required when WHATSAPP_TRANSPORT=twilio.'),
  TWILIO_WHATSAPP_FROM: z
    .string()
    .optional()
    .describe('Twilio WhatsApp sender, e.g. whatsapp:+14155238886. Required when WHATSAPP_TRANSPORT=twilio.'),

  TOKEN_PRIVATE_KEY: z
    .string()
    .optional()
    .describe(
      'PEM (PKCS#8) Ed25519 private key that signs tokens. Unset in the embedded topology: generated once under DATA_DIR.',
    ),
  TOKEN_PUBLIC_KEY: z
    .string()
    .optional()
    .describe(
      'PEM (SPKI) Ed25519 public key that verifies tokens: with TOKEN_PRIVATE_KEY in auth, alone in the other services.',
    ),
  LINK_TOKEN_SECRET: linkSecret.describe(
    'The secret (at least 32 characters, e.g. `openssl rand -base64 32`) that signs and verifies e-mail link tokens (HS256): auth only. Unset in the embedded topology: generated once under DATA_DIR.',
  ),
  LINK_TOKEN_SECRET_PREVIOUS: linkSecret.describe(
    'The link secret before a rotation: still verifies the links signed with it (unsubscribe links last a year), never signs. Auth only.',
  ),
  SESSION_TTL_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(30)
    .describe('Days a session token stays valid (1-365).'),
  INTERNAL_SERVICE_TOKEN: z
    .string()
    .min(32)
    .optional()
    .describe(
      'The credential services present on /internal calls (at least 32 characters). Unset in the embedded topology: generated under DATA_DIR.',
    ),
  ADMIN_EMAILS: csv
    .default([])
    .describe(
      'Comma-separated e-mails that become admins when they first sign in (or at start, if they exist).',
    ),

  GOOGLE_CLIENT_ID: z
    .string()
    .optional()
    .describe('OAuth client id for Google sign-in; unset = Google sign-in disabled.'),
  GOOGLE_CLIENT_SECRET: z.string().optional().describe('OAuth client secret for Google sign-in.'),
  GOOGLE_ISSUER: url
    .default('https://accounts.google.com')
    .describe('OpenID Connect issuer used for Google sign-in (overridable for tests).'),
  REDIRECT_ALLOWLIST: csv
    .default([])
    .describe(
      'Comma-separated origins (besides PUBLIC_URL) that the Google sign-in redirectUrl may point at.',
    ),

  AUTH_URL: url
    .optional()
    .describe(
      'Where the gateway finds the auth service. Unset in the standalone topology, which starts it itself.',
    ),
  CONTENT_URL: url
    .optional()
    .describe(
      'Where the gateway finds the content service. Unset in the standalone topology, which starts it itself.',
    ),
  ENGAGEMENT_URL: url
    .optional()
    .describe(
      'Where the gateway finds the engagement service. Unset in the standalone topology, which starts it itself.',
    ),
  BILLING_URL: url
    .optional()
    .describe(
      'Where the gateway finds the billing service. Unset in the standalone topology, which starts it itself.',
    ),
  REPORTING_URL: url
    .optional()
    .describe(
      'Where the gateway finds the reporting service. Unset in the standalone topology, which starts it itself.',
    ),
  SERVICE_PORT: port.default(3000).describe("A service process's own port (container topology)."),
  METRICS_PORT: port
    .default(9464)
    .describe(
      "Port of the process's Prometheus /metrics (never served on the public port; the standalone process binds it on 127.0.0.1, and on any free port when PORT=0 and this is unset).",
    ),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(20_000)
    .describe(
      "On SIGTERM: how long requests in flight may take to finish (ms) before their connections are closed; then the relay, batchers and consumers are flushed and the stores closed. Keep it under the pod's terminationGracePeriodSeconds.",
    ),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe(
      "Every server of the product: how long a client may take to send a request's headers (ms); then it gets 408 and the connection is closed.",
    ),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe(
      'Every server of the product: how long a client may take to send a whole request, headers and body (ms); then it gets 408 and the connection is closed. At least HTTP_HEADERS_TIMEOUT_MS.',
    ),
  HTTP_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(120_000)
    .describe(
      'Every server of the product: a connection on which nothing is sent or received for this long (ms) while a request is open is closed (a stalled body, a client that stops reading its answer). Between requests a kept-alive connection is closed after 65 s.',
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: url
    .optional()
    .describe(
      'OpenTelemetry collector (OTLP over HTTP), e.g. http://otel-collector:4318: spans are exported to <it>/v1/traces. Unset = nothing exported (trace context is still passed on).',
    ),
  WEB_DIST: z
    .string()
    .default('./web/dist')
    .describe('Where the gateway finds the built web app; absent folder = no web app served.'),
  TRUST_PROXY: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe(
      'Proxy hops in front of the gateway whose X-Forwarded-For is trusted for the client IP (rate limits); 0 = none.',
    ),
  TRUSTED_PROXIES: csv
    .pipe(
      z
        .array(
          z
            .string()
            .refine(
              isTrustedProxyEntry,
              'must list loopback, linklocal, uniquelocal, IP addresses or CIDR ranges',
            ),
        )
        .min(1),
    )
    .default(['loopback'])
    .describe(
      "Comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal) whose X-Forwarded-For a service trusts for the client IP (auth's per-IP limits): the gateway's. loopback fits the standalone topology; in a cluster, the pod network's range (the gateway overwrites what clients send).",
    ),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(600)
    .describe('Requests per minute per client IP through the gateway (/api and /auth).'),
  INTAKE_EVENTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(120)
    .describe(
      'Web events per minute one client address may send to POST /api/eventlogs without signing in (every replica counts together); past it, a 429.',
    ),
  GATEWAY_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .default(512)
    .describe(
      'Requests the gateway has in flight to the services at most; past it new ones get 503 with Retry-After (load shedding). A request counts once its body has arrived, until its answer is written.',
    ),
  GATEWAY_MAX_IN_FLIGHT_PER_CLIENT: z.coerce
    .number()
    .int()
    .min(1)
    .default(64)
    .describe(
      "API requests one client address may have open at once, from their headers to their answer (a body still arriving included); past it new ones get 429 with Retry-After. Counted per gateway process: it bounds that process's sockets and memory, not a rate.",
    ),
  AUTH_CODE_LIMIT_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(5)
    .describe('Sign-in codes that may be requested per e-mail address per hour.'),
  AUTH_CODE_IP_LIMIT_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe('Sign-in codes that may be requested per client IP per hour.'),
  AUTH_WHATSAPP_NUMBER_LIMIT_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(5)
    .describe(
      'WhatsApp verification codes that may be sent to one phone number per hour, whichever accounts ask.',
    ),
  AUTH_WHATSAPP_IP_LIMIT_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe('WhatsApp verification codes that may be requested per client IP per hour.'),
  BODY_LIMIT: z
    .string()
    .refine((v) => (bytes.parse(v) ?? 0) > 0, 'must be a size such as 100kb or 1mb')
    .default('100kb')
    .describe(
      "Largest request body of every API route, e.g. 100kb or 1mb, refused with 413 before it is read. The admin routes that carry an image or a report's logo take more (up to 8 MB), and only from a caller whose Authorization header holds an admin's session.",
    ),
  IMAGE_MAX_PIXELS: z.coerce
    .number()
    .int()
    .min(1_000_000)
    .default(25_000_000)
    .describe(
      "Largest uploaded image in pixels (width × height; 25,000,000 is e.g. 6,000 × 4,000); a larger one is refused with a 400 (so is a side over 16,383, WebP's limit). Making a card-sized variant decodes the whole image: about 4 bytes a pixel of memory, one image at a time per content process.",
    ),

  OPENAI_API_KEY: z
    .string()
    .optional()
    .describe('API key of the AI writer (any OpenAI-compatible server); unset = the AI writer answers 503.'),
  OPENAI_BASE_URL: url
    .optional()
    .describe(
      'Base URL of an OpenAI-compatible API, e.g. http://localhost:11434/v1; unset = api.openai.com.',
    ),
  OPENAI_MODEL: z.string().default('gpt-4o-mini').describe('Chat model the AI writer asks.'),

  RAZORPAY_KEY_ID: z
    .string()
    .optional()
    .describe('Razorpay API key id; unset = the simulated checkout (payments off when NODE_ENV=production).'),
  RAZORPAY_KEY_SECRET: z
    .string()
    .optional()
    .describe('Razorpay API key secret (signs checkout handler results); set together with RAZORPAY_KEY_ID.'),
  RAZORPAY_WEBHOOK_SECRET: z
    .string()
    .optional()
    .describe(
      'Secret of the Razorpay webhook (HMAC-SHA256 of the raw body); generated under DATA_DIR when simulated.',
    ),
  RAZORPAY_PLAN_ID: z
    .string()
    .optional()
    .describe("Razorpay plan id of the '1 Year plan' (12 months, INR 2500); required with RAZORPAY_KEY_ID."),
  RAZORPAY_API_URL: url
    .optional()
    .describe(
      'Base URL of the Razorpay API (for tests against a local server); unset = https://api.razorpay.com/v1.',
    ),
  RENEWAL_GRACE_HOURS: z.coerce
    .number()
    .min(0)
    .max(30 * 24)
    .default(48)
    .describe(
      "Hours after a subscription's endAt that its renewal workflow waits for a late renewal webhook before premium ends (renewal on, or a restart authorised); with renewal off premium ends at endAt.",
    ),
  REMINDER_LATENESS_MINUTES: z.coerce
    .number()
    .int()
    .min(15)
    .max(24 * 60)
    .default(120)
    .describe(
      'A reminder is never sent later than this after its slot: after downtime, older slots are skipped and counted in the log.',
    ),
  REMINDER_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(500)
    .describe('Readers per reminder batch: one internal call per service per batch.'),
  REMINDER_PAGE_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe(
      'Batches of a reminder slot sent at once: on Temporal, page activities shared by the workers of the task queue; standalone, in its one process.',
    ),
  REMINDER_COLD_AFTER: z.coerce
    .number()
    .int()
    .min(1)
    .default(14)
    .describe(
      'Consecutive unopened reminder e-mails after which a reader becomes autppause (cold, type 1) and gets no more e-mail until an open, click or sign-in.',
    ),
  REMINDER_SCHEDULER: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'Standalone only: run the embedded reminder scheduler (off for tests that drive it themselves).',
    ),
  TEMPORAL_ADDRESS: z
    .string()
    .optional()
    .describe(
      'Temporal frontend host:port for the workflows worker (container topology), e.g. temporal:7233.',
    ),
  TEMPORAL_TLS: z
    .enum(['off', 'on'])
    .default('off')
    .describe(
      'on: TLS to the Temporal frontend (Temporal Cloud, a server behind TLS); implied by TEMPORAL_API_KEY.',
    ),
  TEMPORAL_TLS_CA: z
    .string()
    .optional()
    .describe("PEM of the CA that signed the Temporal frontend's certificate, when it is not a public one."),
  TEMPORAL_TLS_CERT: z
    .string()
    .optional()
    .describe('PEM client certificate for mutual TLS (Temporal Cloud with mTLS); with TEMPORAL_TLS_KEY.'),
  TEMPORAL_TLS_KEY: z.string().optional().describe('PEM private key of TEMPORAL_TLS_CERT.'),
  TEMPORAL_API_KEY: z
    .string()
    .optional()
    .describe('API key for Temporal Cloud (sent over TLS, which it turns on).'),
  TEMPORAL_ALLOW_PLAINTEXT: z
    .enum(['off', 'on'])
    .default('off')
    .describe(
      'on: NODE_ENV=production accepts a Temporal frontend without TLS (a server on a private network, as the local overlay and docker-compose run it). Off, production refuses TEMPORAL_TLS=off without an API key.',
    ),
  TEMPORAL_NAMESPACE: z.string().default('default').describe('Temporal namespace of the workflows worker.'),
  TEMPORAL_TASK_QUEUE: z
    .string()
    .default('nudge-reminders')
    .describe('Temporal task queue the workflows worker polls.'),
  CHECKIN_LINK_TTL_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90)
    .default(14)
    .describe('Days a check-in answer link (qlid) stays valid.'),
  SUPPRESSION_SOFT_BOUNCES: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(3)
    .describe(
      'Soft bounces (a full mailbox, a server down) that suppress an address when they come within SUPPRESSION_SOFT_BOUNCE_DAYS.',
    ),
  SUPPRESSION_SOFT_BOUNCE_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(7)
    .describe('The window (days) in which SUPPRESSION_SOFT_BOUNCES soft bounces suppress an address.'),
  SES_SNS_TOPIC_ARNS: csv
    .default([])
    .describe(
      'SNS topics (ARNs, comma-separated) whose Amazon SES bounce and complaint notifications POST /api/webhooks/ses accepts. Empty: that webhook is off.',
    ),
  SENDGRID_WEBHOOK_PUBLIC_KEY: z
    .string()
    .optional()
    .describe(
      "SendGrid's Event Webhook verification key (base64, as SendGrid shows it) for POST /api/webhooks/sendgrid. Unset: that webhook is off.",
    ),
  POSTMARK_WEBHOOK_USER: z
    .string()
    .optional()
    .describe(
      "The basic-auth user set in the URL of Postmark's webhook (POST /api/webhooks/postmark). Unset: that webhook is off.",
    ),
  POSTMARK_WEBHOOK_PASSWORD: z
    .string()
    .min(16)
    .optional()
    .describe('The basic-auth password of POSTMARK_WEBHOOK_USER (at least 16 characters).'),
});

export type Config = z.infer<typeof configSchema>;
export const CONFIG_KEYS = Object.keys(configSchema.shape) as (keyof Config)[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The processes of the product, for the production checks of loadConfig. */
export type ProcessName =
  | 'standalone'
  | 'gateway'
  | 'auth'
  | 'content'
  | 'engagement'
  | 'billing'
  | 'reporting'
  | 'workflows'
  | 'reporting-migrate'
  | 'workflows-bootstrap';

/** What a process needs from its environment in production (NODE_ENV=production). */
type Need = 'store' | 'bus' | 'analytics' | 'temporal' | 'signing' | 'verifying' | 'internal' | 'mail';

const SERVICE_NEEDS: Need[] = ['store', 'bus', 'verifying', 'internal'];
export const PRODUCTION_NEEDS: Record<ProcessName, readonly Need[]> = {
  standalone: ['store', 'bus', 'analytics', 'signing', 'internal', 'mail'],
  // The Authorization header's token, checked before a large admin body is read.
  gateway: ['verifying'],
  auth: ['store', 'bus', 'signing', 'internal', 'mail'],
  content: SERVICE_NEEDS,
  engagement: SERVICE_NEEDS,
  // The renewal notice e-mail.
  billing: [...SERVICE_NEEDS, 'mail'],
  reporting: [...SERVICE_NEEDS, 'analytics'],
  workflows: ['temporal', 'internal', 'mail'],
  'reporting-migrate': ['analytics'],
  'workflows-bootstrap': ['temporal'],
};

/**
 * NODE_ENV=production refuses what only works on one machine (DISTRIBUTED_TEST=on the same, less its substitutions): an embedded adapter (files under DATA_DIR, the
 * in-process bus, chDB), a key or secret generated at start (each pod would make its own), a capture transport for
 * mail a reader must receive. Returns one problem per variable, naming it.
 */
export function productionProblems(config: Config, name: ProcessName): string[] {
  const production = config.NODE_ENV === 'production';
  if (production && config.DISTRIBUTED_TEST === 'on')
    return [
      "DISTRIBUTED_TEST: 'on' keeps documents, analytics and mail on one machine's files; NODE_ENV=production refuses it",
    ];
  if (!production && config.DISTRIBUTED_TEST !== 'on') return [];
  const needs = new Set(PRODUCTION_NEEDS[name]);
  // The distributed test topology's substitutions (see DISTRIBUTED_TEST): the only engines it does not require.
  if (!production) for (const need of ['store', 'analytics', 'mail'] as const) needs.delete(need);
  const problems: string[] = [];
  const prod = production ? 'NODE_ENV=production' : 'DISTRIBUTED_TEST=on';
  if (needs.has('store') && config.DOCUMENT_STORE !== 'mongodb')
    problems.push(
      `DOCUMENT_STORE: '${config.DOCUMENT_STORE}' keeps files on one machine; ${prod} needs DOCUMENT_STORE=mongodb and MONGODB_URL`,
    );
  if (needs.has('bus') && config.EVENT_BUS !== 'kafka')
    problems.push(
      `EVENT_BUS: '${config.EVENT_BUS}' only reaches this process; ${prod} needs EVENT_BUS=kafka and KAFKA_BROKERS`,
    );
  if (needs.has('analytics') && config.ANALYTICS_STORE !== 'clickhouse')
    problems.push(
      `ANALYTICS_STORE: '${config.ANALYTICS_STORE}' is embedded ClickHouse (chDB); ${prod} needs ANALYTICS_STORE=clickhouse and CLICKHOUSE_URL`,
    );
  if (needs.has('temporal') && !config.TEMPORAL_ADDRESS)
    problems.push(`TEMPORAL_ADDRESS: required when ${prod} (the Temporal frontend, e.g. temporal:7233)`);
  // Credentials and events cross the network: in the clear only where the operator says the network is private.
  if (
    production &&
    config.EVENT_BUS === 'kafka' &&
    config.KAFKA_SSL === 'off' &&
    config.KAFKA_ALLOW_PLAINTEXT !== 'on'
  )
    problems.push(
      `KAFKA_SSL: 'off' sends events in the clear; ${prod} needs KAFKA_SSL=on (with KAFKA_SASL_* for managed Kafka), or KAFKA_ALLOW_PLAINTEXT=on for a broker on a private network`,
    );
  if (
    production &&
    config.TEMPORAL_ADDRESS &&
    temporalTls(config) === false &&
    config.TEMPORAL_ALLOW_PLAINTEXT !== 'on'
  )
    problems.push(
      `TEMPORAL_TLS: 'off' reaches Temporal in the clear; ${prod} needs TEMPORAL_TLS=on or TEMPORAL_API_KEY (Temporal Cloud), or TEMPORAL_ALLOW_PLAINTEXT=on for a server on a private network`,
    );
  if (needs.has('signing')) {
    for (const key of ['TOKEN_PRIVATE_KEY', 'TOKEN_PUBLIC_KEY'] as const)
      if (!config[key])
        problems.push(
          `${key}: required when ${prod}; a key pair generated at start differs per pod and per restart`,
        );
    if (!config.LINK_TOKEN_SECRET)
      problems.push(
        `LINK_TOKEN_SECRET: required when ${prod}; a secret generated at start differs per pod and per restart`,
      );
  }
  if (needs.has('verifying') && !config.TOKEN_PUBLIC_KEY)
    problems.push(
      `TOKEN_PUBLIC_KEY: required when ${prod}; a key generated at start cannot verify auth's tokens`,
    );
  if (needs.has('internal') && !config.INTERNAL_SERVICE_TOKEN)
    problems.push(
      `INTERNAL_SERVICE_TOKEN: required when ${prod}; a credential generated at start differs per pod`,
    );
  if (needs.has('mail') && config.MAIL_TRANSPORT !== 'smtp')
    problems.push(
      `MAIL_TRANSPORT: 'capture' stores e-mail instead of sending it; ${prod} needs MAIL_TRANSPORT=smtp and SMTP_URL`,
    );
  if (name === 'billing' || name === 'standalone') {
    if (config.RAZORPAY_KEY_ID) {
      for (const key of ['RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET', 'RAZORPAY_PLAN_ID'] as const)
        if (!config[key]) problems.push(`${key}: required when RAZORPAY_KEY_ID is set and ${prod}`);
    }
  }
  return problems;
}

/**
 * Validates the environment; a bad value throws a ConfigError naming the variable. Given the process, a production
 * configuration is also checked for what that process needs (productionProblems).
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  processName?: ProcessName,
): Config {
  const relevant: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '?');
        return `${key}: ${issue.message}${relevant[key] !== undefined ? ` (got '${relevant[key]}')` : ''}`;
      }),
    );
  }
  const config = parsed.data;
  const missing: string[] = [];
  if (config.DOCUMENT_STORE === 'mongodb' && !config.MONGODB_URL)
    missing.push('MONGODB_URL: required when DOCUMENT_STORE=mongodb');
  if (config.ANALYTICS_STORE === 'clickhouse' && !config.CLICKHOUSE_URL)
    missing.push('CLICKHOUSE_URL: required when ANALYTICS_STORE=clickhouse');
  if (config.EVENT_BUS === 'kafka' && !config.KAFKA_BROKERS?.length)
    missing.push('KAFKA_BROKERS: required when EVENT_BUS=kafka');
  if (config.MAIL_TRANSPORT === 'smtp' && !config.SMTP_URL)
    missing.push('SMTP_URL: required when MAIL_TRANSPORT=smtp');
  missing.push(...dkimProblems(config));
  if (config.WHATSAPP_TRANSPORT === 'twilio') {
    for (const key of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_WHATSAPP_FROM'] as const) {
      if (!config[key]) missing.push(`${key}: required when WHATSAPP_TRANSPORT=twilio`);
    }
  }
  if (config.KAFKA_SASL_MECHANISM !== 'none')
    for (const key of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const)
      if (!config[key])
        missing.push(`${key}: required when KAFKA_SASL_MECHANISM=${config.KAFKA_SASL_MECHANISM}`);
  if (!config.TEMPORAL_TLS_CERT !== !config.TEMPORAL_TLS_KEY)
    missing.push('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY: set both (mutual TLS) or neither');
  // Services other than auth only verify tokens, so the public key may come alone; a private key never may.
  if (config.TOKEN_PRIVATE_KEY && !config.TOKEN_PUBLIC_KEY) {
    missing.push('TOKEN_PUBLIC_KEY: required when TOKEN_PRIVATE_KEY is set');
  }
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS)
    missing.push('HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  if (processName) missing.push(...productionProblems(config, processName));
  if (missing.length) throw new ConfigError(missing);
  return config;
}

/**
 * The DKIM settings go together: a domain without its selector and a key that signs would send unsigned mail, and a
 * domain that is not MAIL_FROM's (or a parent of it) signs mail that DMARC does not count as aligned.
 */
function dkimProblems(config: Config): string[] {
  const { DKIM_DOMAIN: domain, DKIM_SELECTOR: selector, DKIM_PRIVATE_KEY: key } = config;
  if (!domain) return [];
  const problems: string[] = [];
  if (!selector) problems.push('DKIM_SELECTOR: required when DKIM_DOMAIN is set');
  if (!key) problems.push('DKIM_PRIVATE_KEY: required when DKIM_DOMAIN is set');
  else {
    let type: string | undefined;
    try {
      type = createPrivateKey(key).asymmetricKeyType;
    } catch {
      problems.push('DKIM_PRIVATE_KEY: not a PEM private key');
    }
    if (type !== undefined && type !== 'rsa')
      problems.push(
        `DKIM_PRIVATE_KEY: an RSA key is needed (got ${type}); mailbox providers verify RSA signatures`,
      );
  }
  const fromDomain = domainOf(config.MAIL_FROM);
  const d = domain.toLowerCase();
  if (fromDomain !== d && !fromDomain.endsWith(`.${d}`))
    problems.push(
      `DKIM_DOMAIN: '${domain}' does not align with MAIL_FROM's domain '${fromDomain}' (use that domain or a parent of it)`,
    );
  return problems;
}

/** The DKIM key of this configuration, when e-mail is signed. */
export const dkimKeyOf = (config: Config): DkimKey | undefined =>
  config.DKIM_DOMAIN && config.DKIM_SELECTOR && config.DKIM_PRIVATE_KEY
    ? {
        domainName: config.DKIM_DOMAIN,
        keySelector: config.DKIM_SELECTOR,
        privateKey: config.DKIM_PRIVATE_KEY,
      }
    : undefined;

/** Whether this configuration is the embedded (single-machine) topology, which exposes the dev outbox. */
export const isEmbedded = (config: Config): boolean =>
  config.NODE_ENV !== 'production' &&
  config.MAIL_TRANSPORT === 'capture' &&
  config.WHATSAPP_TRANSPORT === 'capture';

/** PEMs in environment variables often arrive with literal \n. */
export const pemOf = (value: string) => value.replace(/\\n/g, '\n');

/** Kafka's TLS and SASL settings (kafkajs's `ssl` and `sasl`), from KAFKA_SSL* and KAFKA_SASL_*. */
export function kafkaSecurity(config: Config): {
  ssl?: true | { ca: string[] };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
} {
  return {
    ...(config.KAFKA_SSL === 'on'
      ? { ssl: config.KAFKA_SSL_CA ? { ca: [pemOf(config.KAFKA_SSL_CA)] } : true }
      : {}),
    ...(config.KAFKA_SASL_MECHANISM !== 'none'
      ? {
          sasl: {
            mechanism: config.KAFKA_SASL_MECHANISM,
            username: config.KAFKA_SASL_USERNAME ?? '',
            password: config.KAFKA_SASL_PASSWORD ?? '',
          },
        }
      : {}),
  };
}

/** The TLS of Temporal connections (the SDK's `tls`): false, true (system CAs), or the CA and client pair. */
export function temporalTls(
  config: Config,
): false | true | { serverRootCACertificate?: Buffer; clientCertPair?: { crt: Buffer; key: Buffer } } {
  const on = config.TEMPORAL_TLS === 'on' || Boolean(config.TEMPORAL_API_KEY);
  if (!on) return false;
  if (!config.TEMPORAL_TLS_CA && !config.TEMPORAL_TLS_CERT) return true;
  return {
    ...(config.TEMPORAL_TLS_CA
      ? { serverRootCACertificate: Buffer.from(pemOf(config.TEMPORAL_TLS_CA)) }
      : {}),
    ...(config.TEMPORAL_TLS_CERT && config.TEMPORAL_TLS_KEY
      ? {
          clientCertPair: {
            crt: Buffer.from(pemOf(config.TEMPORAL_TLS_CERT)),
            key: Buffer.from(pemOf(config.TEMPORAL_TLS_KEY)),
          },
        }
      : {}),
  };
}

/** What every Temporal connection of a process is opened with (Connection.connect, NativeConnection.connect). */
export function temporalConnection(config: Config): {
  address: string;
  tls: ReturnType<typeof temporalTls>;
  apiKey?: string;
} {
  if (!config.TEMPORAL_ADDRESS) throw new ConfigError(['TEMPORAL_ADDRESS: required to reach Temporal']);
  return {
    address: config.TEMPORAL_ADDRESS,
    tls: temporalTls(config),
    ...(config.TEMPORAL_API_KEY ? { apiKey: config.TEMPORAL_API_KEY } : {}),
  };
}

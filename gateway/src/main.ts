// Composition root of the gateway container (container topology). The standalone topology builds the
// gateway itself, with the services' loopback URLs and the dev outbox.

import type { ServiceName } from '@nudge/contracts';
import {
  createDocumentStore,
  createLogger,
  createTokenVerifier,
  type DocumentStore,
  drainServer,
  exitOnSignal,
  listen,
  loadConfig,
  loadVerifyKey,
  serverTimeoutsOf,
  startMetricsServer,
  startTracing,
} from '@nudge/platform';
import { createGateway } from './gateway';
import { serviceReadiness } from './readiness';

const config = loadConfig(process.env, 'gateway');
const log = createLogger('gateway', config.LOG_LEVEL);
const stopTracing = startTracing({ serviceName: 'gateway', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });

const configured: Record<ServiceName, string | undefined> = {
  auth: config.AUTH_URL,
  content: config.CONTENT_URL,
  engagement: config.ENGAGEMENT_URL,
  billing: config.BILLING_URL,
  reporting: config.REPORTING_URL,
};
const services = Object.fromEntries(Object.entries(configured).filter(([, url]) => url)) as Partial<
  Record<ServiceName, string>
>;
for (const [service, url] of Object.entries(configured)) {
  if (!url) log.warn({ service }, `${service.toUpperCase()}_URL is not set: its routes answer 503`);
}

// Several gateway replicas share their rate-limit counts through MongoDB (a database of their own); on the embedded
// store there is one gateway process, which counts in memory.
let rateLimitStore: DocumentStore | undefined;
if (config.DOCUMENT_STORE === 'mongodb' && config.MONGODB_URL) {
  rateLimitStore = await createDocumentStore({
    kind: 'mongodb',
    mongoUrl: config.MONGODB_URL,
    dbName: `${config.MONGODB_DB_PREFIX}_gateway`,
  });
}

// The Authorization header's session token is checked before an admin's large body (an image) is read: with auth's
// public key only. Without it (a development container), no body above BODY_LIMIT is accepted.
const verifier = config.TOKEN_PUBLIC_KEY ? createTokenVerifier(await loadVerifyKey(config)) : undefined;
if (!verifier)
  log.warn('TOKEN_PUBLIC_KEY is not set: request bodies above BODY_LIMIT (admin images) are refused');

const app = createGateway({
  services,
  ...(rateLimitStore ? { rateLimitStore } : {}),
  ...(verifier ? { verifier } : {}),
  webDist: config.WEB_DIST,
  publicUrl: config.PUBLIC_URL,
  rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
  maxInFlight: config.GATEWAY_MAX_IN_FLIGHT,
  // Ready means this gateway can serve: a service that is down answers 503 on its own routes only, and every other
  // route keeps working. Its reachability is shown, never a failure: a gateway whose readiness followed the services
  // would leave the load balancer with no gateway at all whenever one service (or the engine behind it) blips.
  readinessDetail: async () => ({ services: await serviceReadiness(services)() }),
  maxInFlightPerClient: config.GATEWAY_MAX_IN_FLIGHT_PER_CLIENT,
  bodyLimit: config.BODY_LIMIT,
  log,
  // In a container the gateway sits behind one load balancer / ingress hop.
  trustProxy: config.TRUST_PROXY > 0 ? config.TRUST_PROXY : false,
});

// /metrics only on the scrape port: the Ingress reaches PORT, never METRICS_PORT.
const timeouts = serverTimeoutsOf(config);
const metrics = await startMetricsServer(config.METRICS_PORT, '0.0.0.0', timeouts);
// Every interface: the Ingress reaches the pod's address. The load balancer in front closes an idle connection before
// the gateway does (see SERVER_KEEP_ALIVE_TIMEOUT_MS).
const { server } = await listen(app, config.PORT, '0.0.0.0', timeouts).catch((err: unknown) => {
  log.fatal({ err }, 'gateway could not listen');
  process.exit(1);
});
log.info({ port: config.PORT, services, metrics: metrics.url }, 'gateway listening');

// Stop accepting, let requests in flight finish (SHUTDOWN_TIMEOUT_MS at most), then exit.
exitOnSignal(log, config.SHUTDOWN_TIMEOUT_MS, async () => {
  await drainServer(server, config.SHUTDOWN_TIMEOUT_MS);
  await metrics.close();
  await rateLimitStore?.close();
  await stopTracing();
});

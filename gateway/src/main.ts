// Composition root of the gateway container (container topology). The standalone topology builds the
// gateway itself, with the services' loopback URLs and the dev outbox.

import type { ServiceName } from '@nudge/contracts';
import { createDocumentStore, createLogger, type DocumentStore, loadConfig } from '@nudge/platform';
import { createGateway } from './gateway';
import { serviceReadiness } from './readiness';

const config = loadConfig();
const log = createLogger('gateway', config.LOG_LEVEL);

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

const app = createGateway({
  services,
  ...(rateLimitStore ? { rateLimitStore } : {}),
  webDist: config.WEB_DIST,
  rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
  maxInFlight: config.GATEWAY_MAX_IN_FLIGHT,
  readiness: serviceReadiness(services),
  log,
  // In a container the gateway sits behind one load balancer / ingress hop.
  trustProxy: config.TRUST_PROXY > 0 ? config.TRUST_PROXY : false,
});

const server = app.listen(config.PORT, () => {
  log.info({ port: config.PORT, services }, 'gateway listening');
});
server.on('error', (err) => {
  log.fatal({ err }, 'gateway could not listen');
  process.exit(1);
});

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'gateway closing');
  // Stop accepting, let requests in flight finish, then exit; give up after 10 s.
  server.close(() => {
    log.info('gateway closed');
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => {
    log.warn('gateway close timed out; exiting');
    process.exit(1);
  }, 10_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type LabelValues, Registry } from 'prom-client';
import type { EventBus } from './events/types';
import { applyServerTimeouts, DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts';

/**
 * The Prometheus metrics of this process (docs/ARCHITECTURE.md, "Operations"): one registry per process, served on
 * METRICS_PORT (never on the public port). Every application metric carries a `service` label, so the standalone
 * process, which runs every service in one process, still tells them apart. Gauges of things that live elsewhere
 * (pending commits, consumer lag, dead letters) are read from their sources at scrape time.
 */
export interface ProcessMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'service' | 'method' | 'route' | 'status'>;
  readonly httpErrors: Counter<'service' | 'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'service' | 'method' | 'route' | 'status'>;
  readonly analyticsBatchRows: Histogram<'service' | 'source'>;
  readonly analyticsFlushSeconds: Histogram<'service' | 'source'>;
  readonly remindersSent: Counter<'service' | 'channel'>;
  readonly reminderFailures: Counter<'service' | 'channel'>;
  /** Events the bus refused for good (too large for the topic), set aside by the relay. */
  readonly relayRefused: Counter<'service'>;
  /** Consumers that stopped on an error kafkajs does not restart from, and were started again. */
  readonly consumerRestarts: Counter<'group'>;
  readonly reminderThrottled: Counter<'service'>;
  /** Reads `pending()` (commits not yet on the bus) at each scrape; returns the unregister function. */
  addRelay(service: string, pending: () => Promise<number>): () => void;
  /** Reads the bus's consumer lag and dead letters per group at each scrape; returns the unregister function. */
  addBus(bus: EventBus): () => void;
  /**
   * Reads how many records a service's pipelines set aside (by source) at each scrape; returns the unregister
   * function.
   */
  addSetAside(service: string, counts: () => Promise<Record<string, number>>): () => void;
}

type Labels = 'service' | 'method' | 'route' | 'status';

function createProcessMetrics(): ProcessMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const labelNames: Labels[] = ['service', 'method', 'route', 'status'];
  const relays = new Map<string, () => Promise<number>>();
  const buses = new Set<EventBus>();
  const setAside = new Map<string, () => Promise<Record<string, number>>>();

  new Gauge({
    name: 'nudge_relay_pending_commits',
    help: 'Commits in the event store not yet published to the bus, per service.',
    labelNames: ['service'],
    registers,
    async collect() {
      this.reset();
      for (const [service, pending] of relays) {
        const value = await pending().catch(() => undefined);
        if (value !== undefined) this.set({ service }, value);
      }
    },
  });
  new Gauge({
    name: 'nudge_consumer_lag_messages',
    help: 'Messages on a topic that a consumer group has not committed yet.',
    labelNames: ['group', 'topic'],
    registers,
    async collect() {
      this.reset();
      for (const bus of buses) {
        const lags = await (bus.lag?.() ?? Promise.resolve([])).catch(() => []);
        for (const { groupId, topic, lag } of lags) this.set({ group: groupId, topic }, lag);
      }
    },
  });
  new Gauge({
    name: 'nudge_consumer_dead_letters',
    help: 'Dead letters waiting for `npm run bus -- replay-dead-letters`, per consumer group.',
    labelNames: ['group'],
    registers,
    async collect() {
      this.reset();
      for (const bus of buses) {
        const letters = await bus.deadLetters().catch(() => []);
        const counts = new Map<string, number>();
        for (const letter of letters) counts.set(letter.groupId, (counts.get(letter.groupId) ?? 0) + 1);
        for (const [group, count] of counts) this.set({ group }, count);
      }
    },
  });

  new Gauge({
    name: 'nudge_set_aside_records',
    help: 'Records a pipeline set aside because they can never be stored (text that is not valid Unicode, a row the analytics engine refuses), per service and source.',
    labelNames: ['service', 'source'],
    registers,
    async collect() {
      this.reset();
      for (const [service, counts] of setAside) {
        const bySource = await counts().catch(() => ({}));
        for (const [source, count] of Object.entries(bySource)) this.set({ service, source }, count);
      }
    },
  });

  return {
    registry,
    httpRequests: new Counter({
      name: 'nudge_http_requests_total',
      help: 'HTTP requests answered, by service, method, route pattern and status.',
      labelNames,
      registers,
    }),
    httpErrors: new Counter({
      name: 'nudge_http_request_errors_total',
      help: 'HTTP requests answered with a 5xx status, by service, method, route pattern and status.',
      labelNames,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'nudge_http_request_duration_seconds',
      help: 'Time from a request arriving to its response finishing, by service, method, route pattern and status.',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    analyticsBatchRows: new Histogram({
      name: 'nudge_analytics_batch_rows',
      help: 'Rows per batch inserted into the analytics store (source: events from the bus, or web events).',
      labelNames: ['service', 'source'],
      buckets: [1, 10, 100, 1_000, 5_000, 10_000, 50_000],
      registers,
    }),
    analyticsFlushSeconds: new Histogram({
      name: 'nudge_analytics_flush_seconds',
      help: 'Time to insert one batch into the analytics store.',
      labelNames: ['service', 'source'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    remindersSent: new Counter({
      name: 'nudge_reminders_sent_total',
      help: 'Reminders handed to their transport, per channel (email, whatsapp).',
      labelNames: ['service', 'channel'],
      registers,
    }),
    reminderFailures: new Counter({
      name: 'nudge_reminder_failures_total',
      help: 'Reminder deliveries the transport refused (retried by the next run), per channel.',
      labelNames: ['service', 'channel'],
      registers,
    }),
    relayRefused: new Counter({
      name: 'nudge_relay_refused_events_total',
      help: 'Events the bus refused for good (too large for the topic, malformed), set aside in relay_refused.',
      labelNames: ['service'],
      registers,
    }),
    consumerRestarts: new Counter({
      name: 'nudge_consumer_restarts_total',
      help: 'Consumers that stopped on an error and were started again, per consumer group.',
      labelNames: ['group'],
      registers,
    }),
    reminderThrottled: new Counter({
      name: 'nudge_reminder_throttled_total',
      help: 'Reminder deliveries a provider answered with a throttling reply (retried after a back-off).',
      labelNames: ['service'],
      registers,
    }),
    addRelay(service, pending) {
      relays.set(service, pending);
      return () => {
        if (relays.get(service) === pending) relays.delete(service);
      };
    },
    addBus(bus) {
      buses.add(bus);
      return () => {
        buses.delete(bus);
      };
    },
    addSetAside(service, counts) {
      setAside.set(service, counts);
      return () => {
        if (setAside.get(service) === counts) setAside.delete(service);
      };
    },
  };
}

let current: ProcessMetrics | undefined;

/** This process's metrics (created on first use). */
export function processMetrics(): ProcessMetrics {
  current ??= createProcessMetrics();
  return current;
}

const UNMATCHED = 'unmatched';

/** The route pattern express matched (`/api/post/:id`), never the raw URL; `unmatched` when none did. */
export function expressRoute(req: Parameters<RequestHandler>[0]): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (!route || route.path === undefined) return UNMATCHED;
  const path = Array.isArray(route.path) ? route.path.join('|') : String(route.path);
  return `${req.baseUrl}${path}` || '/';
}

/**
 * Records every request's count, 5xx count and duration once its response finished (or the client went away: status
 * 499, nginx's code for it). `routeOf` names the route pattern; by default the one express matched.
 */
export function httpMetrics(
  service: string,
  routeOf: (req: Parameters<RequestHandler>[0]) => string = expressRoute,
): RequestHandler {
  const metrics = processMetrics();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // 'close' comes once per response: after 'finish' when it was answered, alone when the client went away first.
    res.once('close', () => {
      const labels: LabelValues<Labels> = {
        service,
        method: req.method,
        route: routeOf(req),
        status: res.writableFinished ? String(res.statusCode) : '499',
      };
      metrics.httpRequests.inc(labels);
      if (res.statusCode >= 500) metrics.httpErrors.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/**
 * A server that answers GET /metrics (and GET /healthz) and nothing else, on its own port: the scrape port. The
 * public port (the gateway's, behind the Ingress) never serves metrics. Resolves once it listens.
 */
export async function startMetricsServer(
  port: number,
  host: string,
  timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const { registry } = processMetrics();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
          res.end(text);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`metrics failed: ${(err as Error).message}\n`);
        },
      );
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":true}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"status":false,"message":"Not found"}');
  });
  applyServerTimeouts(server, timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = address && typeof address === 'object' ? address.port : port;
  return {
    server,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${boundPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { Agent, type ServerResponse } from 'node:http';
import type { ServiceName } from '@nudge/contracts';
import { handInProcess, injectTraceContext } from '@nudge/platform';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { contractRoute } from './request-facts';
import { requestIdOf } from './request-id';

/** Headers a client must never be able to hand to a service through the gateway. */
const STRIPPED_REQUEST_HEADERS = ['x-internal-token'];

/**
 * How long an idle pooled connection to a service is kept (ms). Below the services' server keep-alive timeout
 * (SERVICE_KEEP_ALIVE_TIMEOUT_MS in platform's listen()), so the gateway closes an idle connection before the
 * service does, and never writes a request into a socket the service is closing at that moment (the cause of a
 * bench run's 503s "not reachable": the services closed idle sockets after 5 s while the gateway kept them longer).
 */
export const FREE_SOCKET_TIMEOUT_MS = 30_000;

/** What the services get: a pooled keep-alive connection per request in flight, at most 256 per service. */
export const serviceAgent = () =>
  new Agent({ keepAlive: true, maxSockets: 256, timeout: FREE_SOCKET_TIMEOUT_MS, scheduling: 'lifo' });

/**
 * What the gateway tells a service about the request, set on the incoming request before it is passed on. The client
 * address is the gateway's own reading (express's `trust proxy` rule): whatever X-Forwarded-* the client sent is
 * overwritten, never passed on, so a client cannot pick the address that per-IP limits count.
 */
function prepareForwarding(req: Request, res: Response, client: { ip: string; protocol: string }) {
  for (const header of STRIPPED_REQUEST_HEADERS) delete req.headers[header];
  // The gateway's span becomes the service's parent (a client's own traceparent is its parent in turn).
  injectTraceContext(req.headers);
  req.headers['x-request-id'] = requestIdOf(res);
  req.headers['x-forwarded-for'] = client.ip;
  req.headers['x-forwarded-proto'] = client.protocol;
  if (req.headers.host) req.headers['x-forwarded-host'] = req.headers.host;
  else delete req.headers['x-forwarded-host'];
  delete req.headers['x-forwarded-port'];
  delete req.headers.forwarded;
}

/** The client's address and protocol by the gateway's `trust proxy` rule (read once: see readClientOnce). */
const clientOf = (req: Request) => ({ ip: req.ip ?? req.socket.remoteAddress ?? '', protocol: req.protocol });

const isResponse = (res: unknown): res is ServerResponse =>
  typeof res === 'object' && res !== null && 'writeHead' in res;

/**
 * Passes the request to a service over HTTP (the container topology, http-proxy-middleware) and streams its answer
 * back. The body streams through untouched (the payment webhook is verified on its raw bytes).
 */
function httpProxy(service: ServiceName, target: string, log: Logger): RequestHandler {
  const proxy = createProxyMiddleware<Request, Response>({
    target,
    agent: serviceAgent(),
    changeOrigin: false,
    // The X-Forwarded-* headers are the gateway's own (prepareForwarding), not appended to the client's.
    xfwd: false,
    on: {
      proxyRes(proxyRes, _req, res) {
        proxyRes.headers['x-request-id'] = requestIdOf(res);
        delete proxyRes.headers['x-powered-by'];
      },
      error(err, req, res) {
        const code = (err as NodeJS.ErrnoException).code;
        if (!isResponse(res) || res.headersSent || res.writableEnded) {
          // No response to answer on, or the upstream failed mid-response: nothing sensible can be sent any more.
          res.destroy();
          return;
        }
        log.warn(
          { requestId: requestIdOf(res as Response), service, target, code, err: err.message, path: req.url },
          'proxy error',
        );
        res.statusCode = 503;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('retry-after', '1');
        res.end(
          JSON.stringify({
            status: false,
            message: `The ${service} service is not reachable right now, please retry`,
          }),
        );
      },
    },
  });
  return (req, res, next) => {
    // Set on the incoming request before it is proxied: the proxy copies these headers into the upstream request.
    // (Setting them in http-proxy's `proxyReq` hook is not safe: that hook runs when a pooled socket is assigned,
    // which under load can be after the request's headers were sent.)
    prepareForwarding(req, res, clientOf(req));
    proxy(req, res, next).catch(next);
  };
}

/**
 * Hands the request to a service's express app in this process (the standalone topology): no second HTTP hop, no
 * loopback socket. The service sees what it would see behind the HTTP proxy: the same headers (X-Forwarded-*, the
 * request id, the trace context), and the gateway's reading of the client address and protocol. It is marked as handed
 * in (handInProcess), so the service's app does not do again what the gateway did: the request id, the access log,
 * parsing the trace context (its span is a child of the gateway's, which is active).
 */
function inProcess(app: ServiceApp): RequestHandler {
  return (req, res, next) => {
    // The client as the gateway read it (readClientOnce) is kept with the request: the service's app, whose `trust
    // proxy` rule trusts its loopback gateway, sees the client the gateway saw (handInProcess fixes that reading).
    prepareForwarding(req, res, clientOf(req));
    handInProcess(req);
    app(req, res, next);
  };
}

/** A service's express app (or any handler that answers every request it gets). */
export type ServiceApp = (req: Request, res: Response, next: (err?: unknown) => void) => void;

/**
 * Routes /api and /auth requests to their owning service by the contracts' routing table: to the service's app in
 * this process when there is one (`apps`), else over HTTP to its URL (`services`).
 */
export function createServiceProxy(
  services: Partial<Record<ServiceName, string>>,
  log: Logger,
  apps: Partial<Record<ServiceName, ServiceApp>> = {},
): RequestHandler {
  const handlers = new Map<ServiceName, RequestHandler>();
  for (const [service, url] of Object.entries(services) as [ServiceName, string | undefined][]) {
    if (url) handlers.set(service, httpProxy(service, url, log));
  }
  for (const [service, app] of Object.entries(apps) as [ServiceName, ServiceApp | undefined][]) {
    if (app) handlers.set(service, inProcess(app));
  }
  return (req, res, next) => {
    const route = contractRoute(req);
    if (!route) {
      res.status(404).json({ status: false, message: `No such API route: ${req.method} ${req.path}` });
      return;
    }
    const handler = handlers.get(route.service);
    if (!handler) {
      res.status(503).json({ status: false, message: `The ${route.service} service is not available yet` });
      return;
    }
    handler(req, res, next);
  };
}

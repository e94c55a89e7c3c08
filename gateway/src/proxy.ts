import { Agent, type ClientRequest, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { findRoute, type ServiceName } from '@nudge/contracts';
import { injectTraceContext } from '@nudge/platform';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './request-id';

/** Headers a client must never be able to hand to a service through the gateway. */
const STRIPPED_REQUEST_HEADERS = ['x-internal-token'];

/** Hop-by-hop headers (RFC 9110 §7.6.1): about one connection, never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * How long an idle pooled connection to a service is kept (ms). Below the services' server keep-alive timeout
 * (SERVICE_KEEP_ALIVE_TIMEOUT_MS in platform's listen()), so the gateway closes an idle connection before the
 * service does, and never writes a request into a socket the service is closing at that moment.
 */
export const FREE_SOCKET_TIMEOUT_MS = 30_000;

/** Request bodies up to this size are kept until the service answers, so a reset idle connection can be retried. */
const REPLAYABLE_BODY_BYTES = 1024 * 1024;

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

/** The client's address and protocol by the gateway's `trust proxy` rule (each an express getter: read once). */
const clientOf = (req: Request) => ({ ip: req.ip ?? req.socket.remoteAddress ?? '', protocol: req.protocol });

function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) out[name] = headers[name];
  return out;
}

/** Connection errors that mean a pooled idle connection was closed by the service as the request went out. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Passes the request to a service over HTTP (the container topology) and streams its answer back. The body streams
 * through untouched (the payment webhook is verified on its raw bytes). A request that fails because the pooled
 * connection it was given had just been closed by the service (a reset on a reused socket, before any answer) is sent
 * once more on another connection; a body up to 1 MB is kept for that until the service answers.
 */
function httpProxy(service: ServiceName, target: string, log: Logger): RequestHandler {
  const base = new URL(target);
  const agent = serviceAgent();
  const unreachable = (req: Request, res: Response, err: NodeJS.ErrnoException) => {
    if (res.headersSent || res.writableEnded) {
      // The upstream failed mid-response: nothing sensible can be sent any more.
      res.destroy();
      return;
    }
    log.warn(
      { requestId: requestIdOf(res), service, target, code: err.code, err: err.message, path: req.path },
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
  };

  return (req, res) => {
    prepareForwarding(req, res, clientOf(req));
    const headers = forwardedHeaders(req.headers);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let replayable = true;
    let answered = false;
    let upstream: ClientRequest | undefined;
    // The client went away before the answer was complete: stop the service's request too.
    res.once('close', () => {
      if (!res.writableFinished) upstream?.destroy();
    });

    const send = (attempt: number, replay: Buffer[] | null) => {
      const outgoing = httpRequest({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: req.method,
        path: req.originalUrl,
        headers,
        agent,
      });
      upstream = outgoing;
      outgoing.on('response', (proxyRes) => {
        answered = true;
        kept.length = 0;
        res.statusCode = proxyRes.statusCode ?? 502;
        for (const name in proxyRes.headers) {
          if (HOP_BY_HOP.has(name) || name === 'transfer-encoding' || name === 'x-powered-by') continue;
          const value = proxyRes.headers[name];
          if (value !== undefined) res.setHeader(name, value);
        }
        res.setHeader('x-request-id', requestIdOf(res));
        proxyRes.on('error', () => res.destroy());
        proxyRes.pipe(res);
      });
      outgoing.on('error', (err: NodeJS.ErrnoException) => {
        if (answered) {
          res.destroy();
          return;
        }
        const retry =
          attempt === 0 &&
          outgoing.reusedSocket &&
          STALE_CONNECTION.has(err.code ?? '') &&
          replayable &&
          !res.destroyed;
        if (!retry) {
          unreachable(req, res, err);
          return;
        }
        log.debug({ requestId: requestIdOf(res), service, code: err.code }, 'retrying on a new connection');
        // The whole body is needed before it is sent again (the failed pipe paused the request: let it flow).
        if (req.readableEnded) send(1, kept);
        else {
          req.once('end', () => send(1, kept));
          req.resume();
        }
      });
      if (replay) {
        for (const chunk of replay) outgoing.write(chunk);
        outgoing.end();
        return;
      }
      req.on('data', (chunk: Buffer) => {
        if (!replayable) return;
        keptBytes += chunk.length;
        if (keptBytes > REPLAYABLE_BODY_BYTES) {
          replayable = false;
          kept.length = 0;
        } else kept.push(chunk);
      });
      req.pipe(outgoing);
    };
    send(0, null);
  };
}

/**
 * Hands the request to a service's express app in this process (the standalone topology): no second HTTP hop, no
 * loopback socket. The service sees what it would see behind the HTTP proxy: the same headers (X-Forwarded-*, the
 * request id, the trace context), and the gateway's reading of the client address and protocol.
 */
function inProcess(app: ServiceApp): RequestHandler {
  return (req, res, next) => {
    // Read with the gateway's `trust proxy` rule before the service's app (whose rule trusts its loopback gateway)
    // takes the request over: the service sees the client the gateway saw.
    const client = clientOf(req);
    const ips = req.ips;
    prepareForwarding(req, res, client);
    const own = (value: unknown) => ({ value, configurable: true, enumerable: true, writable: true });
    Object.defineProperties(req, {
      ip: own(client.ip),
      ips: own(ips),
      protocol: own(client.protocol),
      secure: own(client.protocol === 'https'),
    });
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
    const route = findRoute(req.method, req.path);
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

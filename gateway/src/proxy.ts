import { Agent, type ServerResponse } from 'node:http';
import { findRoute, type ServiceName } from '@nudge/contracts';
import { injectTraceContext } from '@nudge/platform';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { requestIdOf } from './request-id';

/** Headers a client must never be able to hand to a service through the gateway. */
const STRIPPED_REQUEST_HEADERS = ['x-internal-token'];

const isResponse = (res: unknown): res is ServerResponse =>
  typeof res === 'object' && res !== null && 'writeHead' in res;

/**
 * What the gateway tells a service about the request, set on the incoming request before it is proxied: the proxy
 * copies these headers when it creates the upstream request. (Setting them in http-proxy's `proxyReq` hook is not
 * safe: that hook runs when a pooled socket is assigned, which under load can be after the request was ended and its
 * headers sent, and the `ERR_HTTP_HEADERS_SENT` thrown there used to end the whole process.) The client address is
 * the gateway's own reading (express's `trust proxy` rule): whatever X-Forwarded-* the client sent is overwritten,
 * never passed on, so a client cannot pick the address that per-IP limits count.
 */
function prepareForwarding(req: Request, res: Response) {
  for (const header of STRIPPED_REQUEST_HEADERS) delete req.headers[header];
  // The gateway's span becomes the service's parent (a client's own traceparent is its parent in turn).
  injectTraceContext(req.headers);
  req.headers['x-request-id'] = requestIdOf(res);
  req.headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
  req.headers['x-forwarded-proto'] = req.protocol;
  if (req.headers.host) req.headers['x-forwarded-host'] = req.headers.host;
  else delete req.headers['x-forwarded-host'];
  delete req.headers['x-forwarded-port'];
  delete req.headers.forwarded;
}

function proxyFor(service: ServiceName, target: string, log: Logger) {
  return createProxyMiddleware<Request, Response>({
    target,
    // Reuse connections to the service instead of a new TCP connection per request. `timeout` makes an idle socket
    // honour the service's `Keep-Alive: timeout=5` hint (closed a second before the service closes it): without it
    // node's agent keeps idle sockets forever, reuses one just as the service closes it, and the request fails with
    // ECONNRESET, a 503 the client did nothing to earn (found by the soak, issue 14).
    agent: new Agent({ keepAlive: true, maxSockets: 256, timeout: 60_000 }),
    changeOrigin: false,
    // The X-Forwarded-* headers are the gateway's own (prepareForwarding), not appended to the client's.
    xfwd: false,
    on: {
      proxyRes(proxyRes, _req, res) {
        proxyRes.headers['x-request-id'] = requestIdOf(res);
        delete proxyRes.headers['x-powered-by'];
      },
      error(err, _req, res) {
        const code = (err as NodeJS.ErrnoException).code;
        if (!isResponse(res)) {
          res.destroy();
          return;
        }
        if (res.headersSent || res.writableEnded) {
          // The upstream failed mid-response: nothing sensible can be sent any more.
          res.destroy();
          return;
        }
        log.warn(
          { requestId: requestIdOf(res as Response), service, target, code, err: err.message },
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
}

/**
 * Routes /api and /auth requests to their owning service by the contracts' routing table, streaming the
 * body through untouched (the payment webhook is verified on its raw bytes).
 */
export function createServiceProxy(
  services: Partial<Record<ServiceName, string>>,
  log: Logger,
): RequestHandler {
  const proxies = new Map<ServiceName, ReturnType<typeof proxyFor>>();
  for (const [service, url] of Object.entries(services) as [ServiceName, string | undefined][]) {
    if (url) proxies.set(service, proxyFor(service, url, log));
  }
  return (req, res, next) => {
    const route = findRoute(req.method, req.path);
    if (!route) {
      res.status(404).json({ status: false, message: `No such API route: ${req.method} ${req.path}` });
      return;
    }
    const proxy = proxies.get(route.service);
    if (!proxy) {
      res.status(503).json({ status: false, message: `The ${route.service} service is not available yet` });
      return;
    }
    prepareForwarding(req, res);
    proxy(req, res, next).catch(next);
  };
}

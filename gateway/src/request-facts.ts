import { findRoute, type RouteContract } from '@nudge/contracts';
import type { Request } from 'express';

/**
 * Reads the client's address, its forwarding chain and the protocol once, by the gateway's `trust proxy` rule, and
 * keeps them on the request. Each is an express getter that parses X-Forwarded-* again on every read (the rate limit,
 * its key, the proxy and the log read them), and a service's app in this process must see the gateway's reading,
 * not apply its own rule (which trusts its loopback gateway) to the request again.
 */
export function readClientOnce(req: Request): void {
  const ip = req.ip;
  const ips = req.ips;
  const protocol = req.protocol;
  const own = (value: unknown) => ({ value, configurable: true, enumerable: true, writable: true });
  Object.defineProperties(req, {
    ip: own(ip),
    ips: own(ips),
    protocol: own(protocol),
    secure: own(protocol === 'https'),
  });
}

const routes = new WeakMap<Request, RouteContract | null>();

/** The contract route of a request (looked up once per request: the proxy, the metrics and the log all ask). */
export function contractRoute(req: Request): RouteContract | undefined {
  let route = routes.get(req);
  if (route === undefined) {
    route = findRoute(req.method, (req.originalUrl ?? req.url ?? '/').split('?')[0] ?? '/') ?? null;
    routes.set(req, route);
  }
  return route ?? undefined;
}

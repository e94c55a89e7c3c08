import type { Express, Request } from 'express';

/** Not read yet (an address may be undefined: a socket already gone). */
const UNREAD = Symbol('unread');

/** The client as read for one request: its address, forwarding chain and protocol. */
class ClientReading {
  ip: unknown = UNREAD;
  ips: unknown = UNREAD;
  protocol: unknown = UNREAD;
}

const READING = Symbol('nudge.client');
type Read = Request & { [READING]?: ClientReading };
const FACTS = ['ip', 'ips', 'protocol'] as const;

/**
 * Makes `req.ip`, `req.ips` and `req.protocol` (and `req.secure`, which reads `protocol`) read once per request in
 * this app: express's getters parse X-Forwarded-* by the app's `trust proxy` rule again on every read (the rate limit,
 * its key, the proxy and the log each read them). The first reading is kept with the request, and it stands in every
 * app the request is handed to in this process (handInProcess reads all three before): a service's app, whose rule
 * trusts its loopback gateway, sees the client the gateway saw.
 *
 * The getters are replaced on the app's own request prototype (once, at start), not set on each request: defining
 * own properties on a request turned it into a slow dictionary object, and every later read of it paid for that.
 */
export function readClientOnce(app: Express): void {
  const own = app.request as object;
  const express = Object.getPrototypeOf(own) as object;
  for (const fact of FACTS) {
    const read = Object.getOwnPropertyDescriptor(express, fact)?.get;
    if (!read) throw new Error(`express's request has no ${fact} getter`);
    Object.defineProperty(own, fact, {
      configurable: true,
      enumerable: true,
      get(this: Read) {
        let reading = this[READING];
        if (reading === undefined) {
          reading = new ClientReading();
          this[READING] = reading;
        }
        if (reading[fact] === UNREAD) reading[fact] = read.call(this);
        return reading[fact];
      },
    });
  }
}

/** Reads the client's address, chain and protocol now, by the rule of the app the request is in (see readClientOnce). */
export function fixClientReading(req: Request): void {
  void req.ip;
  void req.ips;
  void req.protocol;
}

/**
 * Gives the request the (empty) place of its client reading before express changes its prototype (the gateway's
 * direct entry of contract calls: see giveShapeFirst there), so the first reading adds no property then.
 */
export function reserveClientReading(req: Request): void {
  (req as Read)[READING] = undefined;
}

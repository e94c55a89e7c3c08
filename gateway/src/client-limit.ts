import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { closeIfBodyUnread } from './body-gate';
import { requestIdOf } from './request-id';

export const DEFAULT_MAX_IN_FLIGHT_PER_CLIENT = 64;

/**
 * Bounds the API requests one client (by `keyOf`, its address) has open at once, from their headers to the end of
 * their answer, a body still arriving included: past `max`, a new one is answered 429 with Retry-After at once (and
 * its connection closed when its body is still to come). One address opening hundreds of requests it never finishes
 * sending holds that many of its own requests, not the gateway's in-flight limit nor anyone else's share.
 *
 * Counted in this process: what it bounds is this process's sockets and memory, not a rate (the rate limit is shared
 * by every replica).
 */
export function concurrencyPerClient(
  max: number,
  keyOf: (req: Request) => string,
  log: Logger,
): RequestHandler {
  const open = new Map<string, number>();
  let lastWarned = 0;
  const release = (key: string) => {
    const left = (open.get(key) ?? 1) - 1;
    if (left > 0) open.set(key, left);
    else open.delete(key);
  };
  return (req, res, next) => {
    const key = keyOf(req);
    const count = open.get(key) ?? 0;
    if (count >= max) return refuse(req, res, key, count);
    open.set(key, count + 1);
    // 'close' fires once per response, answered or aborted (a connection closed by a timeout included).
    res.once('close', () => release(key));
    next();
  };

  function refuse(req: Request, res: Response, key: string, count: number): void {
    const now = Date.now();
    if (now - lastWarned > 10_000) {
      lastWarned = now;
      log.warn(
        { client: key, open: count, max, requestId: requestIdOf(res) },
        'refusing a client: too many requests open at once',
      );
    }
    closeIfBodyUnread(req, res);
    res.setHeader('retry-after', '1');
    res.status(429).json({
      status: false,
      message: 'Too many requests at once from your address; please retry in a moment',
    });
  }
}

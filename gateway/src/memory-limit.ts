import type { Request, RequestHandler, Response } from 'express';

export interface MemoryRateLimitOptions {
  /** Requests per window per key. */
  limit: number;
  windowMs: number;
  /** The client's key (its address). */
  keyOf: (req: Request) => string;
  /** Answers a request over the limit (the headers are already set). */
  refuse: (req: Request, res: Response) => void;
}

interface Window {
  hits: number;
  /** When this key's window ends (ms since the epoch). */
  resetAt: number;
}

/**
 * The rate limit of a single gateway (the standalone topology: counted in this process's memory), with
 * express-rate-limit's semantics and headers: a window of `windowMs` per key from its first request (its MemoryStore's),
 * draft-7's `RateLimit-Policy` and `RateLimit` on every answer, and `Retry-After` on the refusal. It answers at once:
 * express-rate-limit awaits its store, the key and the limit (four promises per request) even when they are all in
 * memory. A shared store (several replicas) still goes through express-rate-limit (see apiRateLimit).
 */
export function memoryRateLimit({ limit, windowMs, keyOf, refuse }: MemoryRateLimitOptions): RequestHandler {
  const windows = new Map<string, Window>();
  const policy = `${limit};w=${Math.ceil(windowMs / 1000)}`;
  // Ended windows are dropped once per window, so the map holds the clients of about two windows at most.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  }, windowMs);
  sweep.unref();
  return (req, res, next) => {
    const key = keyOf(req);
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + windowMs };
      windows.set(key, window);
    }
    window.hits += 1;
    const reset = Math.max(0, Math.ceil((window.resetAt - now) / 1000));
    if (!res.headersSent) {
      res.setHeader('RateLimit-Policy', policy);
      res.setHeader(
        'RateLimit',
        `limit=${limit}, remaining=${Math.max(limit - window.hits, 0)}, reset=${reset}`,
      );
    }
    if (window.hits > limit) {
      if (!res.headersSent) res.setHeader('Retry-After', String(reset));
      refuse(req, res);
      return;
    }
    next();
  };
}
